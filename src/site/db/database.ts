/**
 * The one store contract of a local site: SQL with `?` placeholders, run by SQLite (node:sqlite,
 * the default, a file in the site folder) or PostgreSQL (site.json `database`). Adapters write
 * the same SQL for both, so they keep to what both dialects share (see docs/site.md, "Writing SQL
 * for both backends"): INTEGER 0/1 for booleans, TEXT for dates, `ON CONFLICT ... DO UPDATE`,
 * `RETURNING`, no `?` inside string literals. Every table has a `tenant` column and every query
 * names it: a PostgreSQL database may hold many sites.
 */
import path from 'node:path';
import type { Snapshot } from '../../host-api/now-or-later.js';

/** A site's SQLite database, relative to its folder. */
export const SQLITE_FILE = path.join('data', 'site.sqlite');

export type SqlValue = string | number | null;
export type Row = Record<string, SqlValue>;

/** How a read is run. */
export interface ReadOptions {
  /**
   * The text is one of a fixed few that an adapter runs on every request (never one that grows
   * with its values, such as an `IN (?, ?, ...)` list, and with its columns named, never `*`):
   * PostgreSQL keeps it prepared on each pooled connection, its plan parsed once (D368). SQLite
   * keeps every statement prepared anyway (D173).
   */
  prepared?: boolean;
}

export interface SqlRunner {
  all<T extends object = Row>(sql: string, params?: readonly SqlValue[], how?: ReadOptions): Promise<T[]>;
  get<T extends object = Row>(sql: string, params?: readonly SqlValue[], how?: ReadOptions): Promise<T | undefined>;
  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }>;
}

/**
 * Reads answered at once on the calling thread: SQLite's (node:sqlite runs a statement on this
 * thread anyway). What a content adapter's now face reads through (D268).
 */
export interface SqlReadsNow {
  all<T extends object = Row>(sql: string, params?: readonly SqlValue[]): T[];
  get<T extends object = Row>(sql: string, params?: readonly SqlValue[]): T | undefined;
  /** Runs `fn`, which reads through this face, in one read transaction (Snapshot, D361). */
  snapshot: Snapshot;
}

/** The reads of either: what a read written once for both faces (src/site/adapters/content.ts) calls. */
export interface SqlReads {
  all<T extends object = Row>(sql: string, params?: readonly SqlValue[]): T[] | Promise<T[]>;
  get<T extends object = Row>(sql: string, params?: readonly SqlValue[]): T | undefined | Promise<T | undefined>;
}

export interface SiteDatabase extends SqlRunner {
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * The reads answered at once (SQLite only; absent on PostgreSQL, whose statements answer through
   * the network). Throws E_SLICE_YIELD while a transaction holds the connection: a read then
   * waits for it, which only the async path can do.
   */
  readonly now?: SqlReadsNow;
  /**
   * Runs `fn` in one transaction: all its writes or none, so a plugin that fails halfway (or a
   * render that times out while it waits) leaves no torn rows. Calls made outside `fn` meanwhile
   * wait for it on SQLite and use another connection on PostgreSQL.
   */
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` on one connection of the pool, its statements outside any transaction: what holds
   * a session-level advisory lock and runs the statements made under it without asking the pool
   * for a second connection (PostgreSQL; SQLite has one connection and runs `fn` on it). A
   * connection whose `fn` failed is closed, not reused: the session may hold what it should not.
   */
  connection?<T>(fn: (c: SqlRunner) => Promise<T>): Promise<T>;
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

/**
 * The databases of the sites one process serves: each SQLite file its own, and one PostgreSQL
 * pool of at most `pgPoolMax` connections per URL, shared by every open site that names it (the
 * rows carry their tenant). A site's handle closes only its share; the pool ends with its last site.
 */
export class DatabasePools {
  private readonly pg = new Map<string, { db: Promise<SiteDatabase>; users: number; ready?: SiteDatabase }>();

  constructor(private readonly pgPoolMax: number) {}

  /** Use of each pool open now. */
  *uses(): Generator<{ total: number; idle: number; waiting: number }> {
    for (const e of this.pg.values()) {
      const use = e.ready?.poolUse?.();
      if (use) yield use;
    }
  }

  async open(target: { url?: string | null; sqlitePath: string }): Promise<SiteDatabase> {
    const url = target.url;
    if (!url) return openDatabase(target);
    let shared = this.pg.get(url);
    if (!shared) {
      const made = import('./postgres.js').then(({ openPostgres }) => openPostgres(url, this.pgPoolMax));
      const entry: { db: Promise<SiteDatabase>; users: number; ready?: SiteDatabase } = { db: made, users: 0 };
      made.then(
        (db) => (entry.ready = db),
        () => {},
      );
      shared = entry;
      this.pg.set(url, shared);
    }
    shared.users++;
    const entry = shared;
    let db: SiteDatabase;
    try {
      db = await entry.db;
    } catch (e) {
      if (--entry.users === 0 && this.pg.get(url) === entry) this.pg.delete(url);
      throw e;
    }
    let closed = false;
    // An object per site: what is kept per open database (its batch queue) stays the site's.
    return {
      dialect: db.dialect,
      all: (sql, params, how) => db.all(sql, params, how),
      get: (sql, params, how) => db.get(sql, params, how),
      run: (sql, params) => db.run(sql, params),
      transaction: (fn) => db.transaction(fn),
      ...(db.connection ? { connection: db.connection.bind(db) } : {}),
      close: async () => {
        if (closed) return;
        closed = true;
        if (--entry.users > 0) return;
        if (this.pg.get(url) === entry) this.pg.delete(url);
        await db.close();
      },
    };
  }

  /** Open PostgreSQL pools (one per URL in use). */
  get pgPools(): number {
    return this.pg.size;
  }
}
