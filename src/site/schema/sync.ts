/**
 * The history of {site_sync} runs into a site (its tenant is the target's): which site it copied
 * from, what, when (the render's clock, Unix seconds), and whether it completed. The six-hour
 * interval counts completed runs only; a failed run changed nothing and is kept with its reason.
 */
import type { SchemaModule } from './schema-module.js';

export const syncSchema: SchemaModule = {
  family: 'sync',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS site_sync_runs (
      tenant TEXT NOT NULL,
      run_id BIGINT NOT NULL,
      from_site TEXT NOT NULL,
      sync_type INTEGER NOT NULL,
      run_at INTEGER NOT NULL,
      status TEXT NOT NULL,
      error TEXT NOT NULL DEFAULT '',
      PRIMARY KEY (tenant, run_id)
    )`,
    'CREATE INDEX IF NOT EXISTS site_sync_runs_by_time ON site_sync_runs (tenant, status, run_at)',
  ],
};
