/**
 * The SQLite backend, on node:sqlite (the SQLite built into Node 24; decision D50: better-sqlite3
 * would need a prebuilt binary from GitHub or a compile against the running Node's headers). It
 * is synchronous, so one connection serves the site: statements run one at a time, and a
 * transaction holds the connection until it ends (`lock`), so no other call's statement lands
 * inside it.
 *
 * A synchronous statement cannot be cancelled once it runs (D183): a render's statement does not
 * start once the render is over, and gives it at most MAX_RENDER_ROWS rows, read one at a time so
 * that the rows past the cap are never made.
 *
 * Its reads also have a face that answers at once (`now`, D268), the same statements run by the
 * same code without the promise, for a render in the synchronous slice of the embedding process.
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { Row, SiteDatabase, SqlReadsNow, SqlRunner, SqlValue } from './database.js';
import { notNow } from '../../index.js';
import { MAX_RENDER_ROWS, checkStatement, statementSignal, tooManyRows } from './render-statements.js';

/**
 * Statements kept prepared per connection. The sample `news` endpoint runs 8 queries a request;
 * preparing each again was ~30% of its SQLite time (bench/README.md, "Serve"). The SQL texts are
 * the adapters' own (values are always parameters), so the set is small; `IN (?, ?, ...)` lists
 * vary with their length, hence a bound, the oldest prepared going first.
 */
const STATEMENTS_KEPT = 256;

class SqliteRunner implements SqlRunner {
  private readonly statements = new Map<string, StatementSync>();

  constructor(protected readonly db: DatabaseSync) {}

  /** A statement runs to completion inside one call (all, get, run), so one prepared copy serves every caller. */
  private prepared(sql: string): StatementSync {
    let st = this.statements.get(sql);
    if (st === undefined) {
      st = this.db.prepare(sql);
      if (this.statements.size >= STATEMENTS_KEPT) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(sql, st);
    }
    return st;
  }

  async all<T extends object = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return this.allNow<T>(sql, params);
  }
  async get<T extends object = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return this.getNow<T>(sql, params);
  }

  allNow<T extends object = Row>(sql: string, params: readonly SqlValue[] = []): T[] {
    const signal = statementSignal();
    checkStatement(signal);
    const stmt = this.prepared(sql);
    if (!signal) return stmt.all(...(params as SQLInputValue[])) as T[];
    const rows: T[] = [];
    for (const row of stmt.iterate(...(params as SQLInputValue[]))) {
      if (rows.length === MAX_RENDER_ROWS) throw tooManyRows();
      rows.push(row as T);
    }
    return rows;
  }
  getNow<T extends object = Row>(sql: string, params: readonly SqlValue[] = []): T | undefined {
    checkStatement(statementSignal());
    return this.prepared(sql).get(...(params as SQLInputValue[])) as T | undefined;
  }
  async run(sql: string, params: readonly SqlValue[] = []): Promise<{ changes: number }> {
    checkStatement(statementSignal());
    const r = this.prepared(sql).run(...(params as SQLInputValue[]));
    return { changes: Number(r.changes) };
  }
}

class SqliteDatabase implements SiteDatabase {
  readonly dialect = 'sqlite' as const;
  private readonly runner: SqliteRunner;
  /** Ends when the transaction in progress (if any) has ended. */
  private lock: Promise<void> = Promise.resolve();
  /** A transaction holds the connection (BEGIN to COMMIT): a read at once would land inside it. */
  private inTransaction = false;
  readonly now: SqlReadsNow;

  constructor(private readonly db: DatabaseSync) {
    this.runner = new SqliteRunner(db);
    const runner = this.runner;
    const free = () => {
      if (this.inTransaction) throw notNow('a database read: a transaction holds the connection');
    };
    // Inside a snapshot: its read transaction is open, and a nested one only runs its function.
    let snapshotting = false;
    this.now = {
      all<T extends object = Row>(sql: string, params?: readonly SqlValue[]): T[] {
        free();
        return runner.allNow<T>(sql, params);
      },
      get<T extends object = Row>(sql: string, params?: readonly SqlValue[]): T | undefined {
        free();
        return runner.getNow<T>(sql, params);
      },
      snapshot<T>(fn: () => T): T {
        if (snapshotting) return fn();
        free();
        // Deferred: a read transaction in WAL mode, which never waits for a writer nor holds one up.
        db.exec('BEGIN');
        snapshotting = true;
        try {
          const out = fn();
          db.exec('COMMIT');
          return out;
        } catch (e) {
          db.exec('ROLLBACK');
          throw e;
        } finally {
          snapshotting = false;
        }
      },
    };
  }

  private async outside<T>(op: () => Promise<T>): Promise<T> {
    await this.lock;
    return op();
  }
  all<T extends object = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.outside(() => this.runner.all<T>(sql, params));
  }
  get<T extends object = Row>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.outside(() => this.runner.get<T>(sql, params));
  }
  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }> {
    return this.outside(() => this.runner.run(sql, params));
  }

  async transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T> {
    const before = this.lock;
    let release!: () => void;
    this.lock = new Promise<void>((r) => (release = r));
    await before;
    try {
      this.db.exec('BEGIN IMMEDIATE');
      this.inTransaction = true;
      try {
        const out = await fn(this.runner);
        this.db.exec('COMMIT');
        return out;
      } catch (e) {
        this.db.exec('ROLLBACK');
        throw e;
      }
    } finally {
      this.inTransaction = false;
      release();
    }
  }

  async close(): Promise<void> {
    await this.lock;
    this.db.close();
  }
}

/** How long a statement waits for another process's lock on the file, ms. */
const BUSY_TIMEOUT_MS = 5000;

export function openSqlite(path: string): SiteDatabase {
  // The busy timeout is set at open, before the journal mode: several processes opening one site
  // at once (`serve --processes N`, batch workers) meet each other's locks there first.
  const db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
  // WAL: readers (another CLI command on the same site) do not wait for a writer.
  if (path !== ':memory:') walMode(db);
  db.exec('PRAGMA foreign_keys = ON');
  return new SqliteDatabase(db);
}

/**
 * `PRAGMA journal_mode = WAL`, tried again while another connection holds the file for WAL
 * recovery: SQLite answers SQLITE_BUSY_RECOVERY there without calling the busy handler (seen in
 * CI: three processes opening one site, "database is locked", errcode 261). Bounded by the busy
 * timeout; the open is synchronous, as the statements are.
 */
function walMode(db: DatabaseSync): void {
  const deadline = performance.now() + BUSY_TIMEOUT_MS;
  for (let wait = 2; ; wait = Math.min(wait * 2, 100)) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (e) {
      const code = (e as { errcode?: number }).errcode;
      // SQLITE_BUSY (5) and its extended codes; anything else is the open's error.
      if (code === undefined || (code & 0xff) !== 5 || performance.now() >= deadline) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
    }
  }
}
