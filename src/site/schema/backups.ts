/**
 * Backups of the site ({backup}): one row per archive in data/backups/<id>.tar. Not itself part of
 * a backup (a backup does not hold the backups made before it). `created` is Unix seconds. A row
 * with an empty sha256 (and size 0) is a backup still being made: its row is claimed first (D339).
 */
import type { SchemaModule } from './schema-module.js';

export const backupsSchema: SchemaModule = {
  family: 'backups',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS backups (
      tenant TEXT NOT NULL,
      id TEXT NOT NULL,
      type TEXT NOT NULL,
      memo TEXT NOT NULL,
      created INTEGER NOT NULL,
      size INTEGER NOT NULL,
      sha256 TEXT NOT NULL,
      PRIMARY KEY (tenant, id)
    )`,
    'CREATE INDEX IF NOT EXISTS backups_created ON backups (tenant, created)',
  ],
};
