/**
 * One family's tables (content, members, tags...): the statements that create them, written for
 * both backends. Every table starts with `tenant TEXT NOT NULL` and has it first in its primary
 * key and indexes. Statements must be idempotent (`CREATE TABLE IF NOT EXISTS`, `CREATE INDEX IF
 * NOT EXISTS`): they run at every open.
 */
import type { SiteDatabase } from '../db/database.js';

export interface SchemaModule {
  family: string;
  statements(dialect: SiteDatabase['dialect']): readonly string[];
}

/** An id column the database numbers itself: the one place the two dialects differ in DDL. */
export function autoId(dialect: SiteDatabase['dialect'], column = 'id'): string {
  return dialect === 'postgres' ? `${column} BIGSERIAL PRIMARY KEY` : `${column} INTEGER PRIMARY KEY AUTOINCREMENT`;
}
