/**
 * The one store contract of a local site: SQL with `?` placeholders, run by SQLite (node:sqlite,
 * the default, a file in the site folder) or PostgreSQL (site.json `database`). Adapters write
 * the same SQL for both, so they keep to what both dialects share (see docs/site.md, "Writing SQL
 * for both backends"): INTEGER 0/1 for booleans, TEXT for dates, `ON CONFLICT ... DO UPDATE`,
 * `RETURNING`, no `?` inside string literals. Every table has a `tenant` column and every query
 * names it: a PostgreSQL database may hold many sites.
 */
import path from 'node:path';

/** A site's SQLite database, relative to its folder. */
export const SQLITE_FILE = path.join('data', 'site.sqlite');

export type SqlValue = string | number | null;
export type Row = Record<string, SqlValue>;

export interface SqlRunner {
  all<T extends object = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  get<T extends object = Row>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }>;
}

export interface SiteDatabase extends SqlRunner {
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Runs `fn` in one transaction: all its writes or none, so a plugin that fails halfway (or a
   * render that times out while it waits) leaves no torn rows. Calls made outside `fn` meanwhile
   * wait for it on SQLite and use another connection on PostgreSQL.
   */
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /** Clients of the connection pool (PostgreSQL; absent for SQLite, which has none): for metrics. */
  poolUse?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** Opens the database a site.json names: a PostgreSQL URL, or SQLite at `sqlitePath`. */
export async function openDatabase(target: { url?: string | null; sqlitePath: string }): Promise<SiteDatabase> {
  if (target.url) {
    const { openPostgres } = await import('./postgres.js');
    return openPostgres(target.url);
  }
  const { openSqlite } = await import('./sqlite.js');
  return openSqlite(target.sqlitePath);
}
