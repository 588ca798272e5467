/**
 * Batches: the queue of runs (the site-store backend's; a BullMQ site keeps its queue in Redis),
 * the history of every attempt with its logs, and the last schedule slot queued per batch. Run
 * ids count per tenant in `batch_ids`, so a PostgreSQL database shared by many sites still gives
 * each site 1, 2, 3... Times are Unix seconds; `data` is the run's ext_data as PHP's
 * json_encode writes it (docs/site.md "Batches": key order kept).
 */
import type { SchemaModule } from './schema-module.js';

export const batchesSchema: SchemaModule = {
  family: 'batches',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS batch_ids (
      tenant TEXT NOT NULL,
      last_id INTEGER NOT NULL,
      PRIMARY KEY (tenant)
    )`,
    `CREATE TABLE IF NOT EXISTS batch_queue (
      tenant TEXT NOT NULL,
      id INTEGER NOT NULL,
      slug TEXT NOT NULL,
      module TEXT,
      data TEXT NOT NULL,
      origin TEXT NOT NULL,
      request_id TEXT NOT NULL,
      depth INTEGER NOT NULL,
      dedupe_key TEXT,
      state TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      lease_owner TEXT,
      lease_expires BIGINT,
      queued_at INTEGER NOT NULL,
      finished_at INTEGER,
      PRIMARY KEY (tenant, id)
    )`,
    'CREATE UNIQUE INDEX IF NOT EXISTS batch_queue_dedupe ON batch_queue (tenant, dedupe_key)',
    'CREATE INDEX IF NOT EXISTS batch_queue_state ON batch_queue (tenant, state, id)',
    `CREATE TABLE IF NOT EXISTS batch_runs (
      tenant TEXT NOT NULL,
      run_id INTEGER NOT NULL,
      attempt INTEGER NOT NULL,
      slug TEXT NOT NULL,
      origin TEXT NOT NULL,
      worker TEXT NOT NULL,
      state TEXT NOT NULL,
      started INTEGER NOT NULL,
      ended INTEGER,
      output TEXT NOT NULL,
      errors TEXT NOT NULL,
      warnings TEXT NOT NULL,
      logs TEXT NOT NULL,
      PRIMARY KEY (tenant, run_id, attempt)
    )`,
    'CREATE INDEX IF NOT EXISTS batch_runs_started ON batch_runs (tenant, started)',
    `CREATE TABLE IF NOT EXISTS batch_schedule (
      tenant TEXT NOT NULL,
      slug TEXT NOT NULL,
      last_slot INTEGER NOT NULL,
      PRIMARY KEY (tenant, slug)
    )`,
  ],
};
