/**
 * The content version of a site (D235): a number in the shared store, one row per site in
 * `content_versions`, that every write of the site's content or members through the site's
 * database handle moves on. The API cache (api/response-cache.ts) keeps each answer with the
 * version it was made at and serves it only while the version is still that one, so a write on
 * any node that shares the store ends the answers every node keeps ("Several nodes, one truth").
 *
 * The version moves with the write, never before it: inside the write's own transaction (both
 * commit or neither), or by a statement right after a write made outside one. A reader reads the
 * version before it renders; so an answer made from rows older than a write is kept under a
 * version older than that write's, and is never served once the write is seen.
 *
 * What counts as a write is told from the SQL itself (`contentWrite`): a statement that is not a
 * read, unless it only writes one of the site's bookkeeping tables (sessions, the batch queue,
 * the mail outbox, locks...), which no cached answer can show (api/cache-rule.ts keeps the
 * plugins that read them out of cached endpoints). A statement the rule cannot read counts as a
 * write: too many versions cost a render, too few a stale answer.
 */
import type { ReadOptions, Row, SiteDatabase, SqlReadsNow, SqlRunner, SqlValue } from './database.js';
import { detached } from './render-statements.js';

/** Tables whose rows no cacheable endpoint reads: writing them leaves the version alone. */
const BOOKKEEPING: ReadonlySet<string> = new Set([
  'content_versions',
  'sessions',
  'api_tokens',
  'batch_queue',
  'batch_runs',
  'batch_heartbeats',
  'batch_cancels',
  'batch_schedule',
  'batch_ids',
  'mail_outbox',
  'storage_locks',
  'storage_usage',
  'site_sync_runs',
  'spider_history',
  // Counters are published by sync_counter into topic_counters, which does move the version.
  'topic_counters_pending',
]);

/** Statements that never change a row. */
const READ = /^\s*(SELECT|PRAGMA|SET|SHOW|EXPLAIN|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i;
const DML = /\b(INSERT|UPDATE|DELETE|REPLACE|MERGE|TRUNCATE)\b/i;
/** The table a single-table write names first. */
const TARGET = /^\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+"?([A-Za-z_][A-Za-z0-9_]*)"?/i;

/** True when `sql` may change what a cached answer shows (conservative: unknown is a write). */
export function contentWrite(sql: string): boolean {
  if (READ.test(sql)) return false;
  if (/^\s*WITH\b/i.test(sql)) return DML.test(sql);
  const table = TARGET.exec(sql)?.[1]?.toLowerCase();
  return table === undefined || !BOOKKEEPING.has(table);
}

const BUMP = `INSERT INTO content_versions (tenant, version) VALUES (?, 1)
  ON CONFLICT (tenant) DO UPDATE SET version = content_versions.version + 1`;
const READ_VERSION = 'SELECT version FROM content_versions WHERE tenant = ?';

/**
 * How stale a node's idea of the version may be, ms (D235): 0 reads the store for each cached
 * request (SQLite: a prepared read of one row by its key, a few µs); PostgreSQL is a round trip,
 * so a node reads it at most this often and a write on another node is seen within it. A write
 * through this node is seen at once either way.
 */
const VERSION_MAX_AGE_MS: Readonly<Record<SiteDatabase['dialect'], number>> = { sqlite: 0, postgres: 100 };

export class ContentVersion {
  private known: { version: number; at: number } | null = null;
  private reading: Promise<number> | null = null;
  /** Moved on by every local write: a read begun before a write does not answer for after it. */
  private epoch = 0;

  constructor(
    private readonly db: SqlRunner,
    private readonly tenant: string,
    private readonly maxAgeMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The version now, as of at most maxAgeMs ago (0 when the site was never written). */
  async current(): Promise<number> {
    const k = this.known;
    if (k && this.maxAgeMs > 0 && this.now() - k.at < this.maxAgeMs) return k.version;
    // Requests that arrive while a read runs share it; the next ones read again.
    if (this.reading) return this.reading;
    const epoch = this.epoch;
    const at = this.now();
    const reading = this.db.get<{ version: number | string }>(READ_VERSION, [this.tenant]).then((row) => {
      const version = row ? Number(row.version) : 0;
      if (this.epoch === epoch) this.known = { version, at };
      return version;
    });
    this.reading = reading;
    const done = () => {
      if (this.reading === reading) this.reading = null;
    };
    reading.then(done, done);
    return reading;
  }

  /** A write through this node: forget what was read, so the next request reads the store. */
  wrote(): void {
    this.epoch++;
    this.known = null;
    this.reading = null;
  }
}

/**
 * The site's database with its writes moving the content version: what every adapter of the
 * site is given (open-site.ts). The version's own statements run on the handle underneath.
 *
 * `readers`: whether anything of the site reads the version, that is whether an endpoint of its
 * site.json keeps answers (`cache`). When nothing does, the handle is the store itself (D257): a
 * write outside a transaction was two commits, the write's and the version's, and on SQLite
 * (synchronous FULL) each is a sync of the WAL, 2-5 ms on this machine; every statement was also
 * read by `contentWrite`. A site.json that adds `cache` opens the site again (the registry), and
 * then its writes move the version.
 */
export function versionedDatabase(
  db: SiteDatabase,
  tenant: string,
  readers: boolean,
): { db: SiteDatabase; version: ContentVersion } {
  const version = new ContentVersion(db, tenant, VERSION_MAX_AGE_MS[db.dialect]);
  if (!readers) return { db, version };
  /**
   * The version moved on after a write that committed on its own: detached from the render that
   * wrote, so that a render ending right after its write cannot stop the version from moving.
   */
  const bump = () => detached(() => db.run(BUMP, [tenant]));
  /** Outside a transaction: the write, then the version, each committed on its own. */
  const after = async <T>(sql: string, result: Promise<T>): Promise<T> => {
    const r = await result;
    if (contentWrite(sql)) {
      await bump();
      version.wrote();
    }
    return r;
  };
  /** A runner whose writes mark `dirty`, for a transaction or a held connection. */
  const watching = (runner: SqlRunner, dirty: { wrote: boolean }): SqlRunner => ({
    all: <T extends object = Row>(sql: string, params?: readonly SqlValue[], how?: ReadOptions) => {
      if (contentWrite(sql)) dirty.wrote = true;
      return runner.all<T>(sql, params, how);
    },
    get: <T extends object = Row>(sql: string, params?: readonly SqlValue[], how?: ReadOptions) => {
      if (contentWrite(sql)) dirty.wrote = true;
      return runner.get<T>(sql, params, how);
    },
    run: (sql, params) => {
      if (contentWrite(sql)) dirty.wrote = true;
      return runner.run(sql, params);
    },
  });
  const wrapped: SiteDatabase = {
    dialect: db.dialect,
    all: <T extends object = Row>(sql: string, params?: readonly SqlValue[], how?: ReadOptions) =>
      after(sql, db.all<T>(sql, params, how)),
    get: <T extends object = Row>(sql: string, params?: readonly SqlValue[], how?: ReadOptions) =>
      after(sql, db.get<T>(sql, params, how)),
    run: (sql, params) => after(sql, db.run(sql, params)),
    // In the transaction: the version commits with the write, or neither does.
    transaction: async <T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T> => {
      const dirty = { wrote: false };
      const r = await db.transaction(async (tx) => {
        const out = await fn(watching(tx, dirty));
        if (dirty.wrote) await tx.run(BUMP, [tenant]);
        return out;
      });
      if (dirty.wrote) version.wrote();
      return r;
    },
    ...(db.connection
      ? {
          connection: async <T>(fn: (c: SqlRunner) => Promise<T>): Promise<T> => {
            const dirty = { wrote: false };
            // Its statements commit one by one: the version moves even when `fn` fails after a write.
            try {
              return await db.connection!((c) => fn(watching(c, dirty)));
            } finally {
              if (dirty.wrote) {
                await bump();
                version.wrote();
              }
            }
          },
        }
      : {}),
    ...(db.poolUse ? { poolUse: db.poolUse.bind(db) } : {}),
    // The reads answered at once (SQLite, D268) read only: a write there would skip the version.
    ...(db.now ? { now: readsOnly(db.now) } : {}),
    close: () => db.close(),
  };
  return { db: wrapped, version };
}

/** `now` refusing any statement that may change a row: it is for reads, and a write must move the version. */
function readsOnly(now: SqlReadsNow): SqlReadsNow {
  const check = (sql: string) => {
    if (contentWrite(sql)) throw new Error('a statement that writes, through the reads answered at once');
  };
  return {
    all: <T extends object = Row>(sql: string, params?: readonly SqlValue[]) => {
      check(sql);
      return now.all<T>(sql, params);
    },
    get: <T extends object = Row>(sql: string, params?: readonly SqlValue[]) => {
      check(sql);
      return now.get<T>(sql, params);
    },
    snapshot: now.snapshot,
  };
}
