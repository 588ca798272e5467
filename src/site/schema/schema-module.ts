/**
 * One family's tables (content, members, tags...) as they stood when the schema was first
 * versioned: together they are migration 1, the baseline (migrations.ts). Written for both
 * backends; every table starts with `tenant TEXT NOT NULL` and has it first in its primary key and
 * indexes. Idempotent (`IF NOT EXISTS`), so a database made before versioning takes the baseline
 * as a no-op. Do not edit them: a change to a table is a new migration.
 */
import type { SiteDatabase } from '../db/database.js';

export interface SchemaModule {
  family: string;
  statements(dialect: SiteDatabase['dialect']): readonly string[];
}
