/**
 * The PostgreSQL backend (site.json `database`: a postgres:// URL), on `pg`, an optional peer
 * dependency loaded only here. `?` placeholders become `$1..$n`; BIGINT and NUMERIC come back as
 * numbers, as SQLite gives them, so adapters see one shape from both.
 *
 * A statement run for a render is cancelled when the render ends (D183): it runs on a client of
 * its own, and the render's signal sends the server a cancel request for that client's backend.
 * A client that was sent one leaves the pool (destroyed, never released for reuse): a cancel that
 * arrives late must not stop another render's statement, nor a half-ended transaction be reused.
 */
import { connect } from 'node:net';
import type { ReadOptions, Row, SiteDatabase, SqlRunner, SqlValue } from './database.js';
import type { Pool, PoolClient, QueryConfig, QueryResult } from 'pg';
import { PgStatementNames } from './pg-statement-names.js';
import { MAX_RENDER_ROWS, checkStatement, renderEnded, statementSignal, tooManyRows } from './render-statements.js';

const INT8 = 20;
const NUMERIC = 1700;

/** `?` -> `$n`. The SQL of the adapters keeps `?` out of string literals (database.ts). */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/**
 * The protocol's CancelRequest for the backend of `client`, on a connection of its own: it needs no
 * login and no pool client, so it works while the pool is exhausted. The server closes it.
 */
function sendCancel(client: PoolClient): void {
  const key = client as PoolClient & { processID?: number | null; secretKey?: number | null };
  if (key.processID == null || key.secretKey == null) return;
  const request = Buffer.alloc(16);
  request.writeInt32BE(16, 0);
  request.writeInt32BE(80877102, 4);
  request.writeInt32BE(key.processID, 8);
  request.writeInt32BE(key.secretKey, 12);
  const socket = client.host?.startsWith('/')
    ? connect(`${client.host}/.s.PGSQL.${client.port}`)
    : connect(client.port, client.host);
  socket.on('error', () => {});
  socket.on('connect', () => socket.end(request));
  // The server answers nothing and closes; a server that does not is not waited for.
  socket.setTimeout(5000, () => socket.destroy());
}

/** A pool client used for one render's statements (or one transaction's); `cancelled`: a cancel request was sent on it. */
class Held {
  cancelled = false;
  constructor(readonly client: PoolClient) {}

  async query(q: QueryConfig<SqlValue[]>, signal: AbortSignal | undefined): Promise<QueryResult> {
    if (!signal) return this.client.query(q);
    checkStatement(signal);
    const cancel = (): void => {
      this.cancelled = true;
      sendCancel(this.client);
    };
    signal.addEventListener('abort', cancel, { once: true });
    try {
      const r = await this.client.query(q);
      if (r.rows.length > MAX_RENDER_ROWS) throw tooManyRows();
      return r;
    } catch (e) {
      if (this.cancelled) throw renderEnded(signal);
      throw e;
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }

  /** Back to the pool, or destroyed after a cancel (or when `broken`). */
  release(broken = false): void {
    this.client.release(this.cancelled || broken);
  }
}

class PgRunner implements SqlRunner {
  /** `held`: the client of the transaction in progress; absent, each statement takes one from the pool. */
  constructor(
    private readonly pool: Pool,
    private readonly names: PgStatementNames,
    private readonly held?: Held,
  ) {}

  private async query(sql: string, params: readonly SqlValue[], how?: ReadOptions): Promise<QueryResult> {
    // In a transaction a failed statement fails the transaction: there no statement is named.
    if (this.held)
      return this.held.query({ text: numberPlaceholders(sql), values: params as SqlValue[] }, statementSignal());
    const q = this.names.statement(numberPlaceholders(sql), params as SqlValue[], how);
    const signal = statementSignal();
    if (!signal) return this.names.run(q, (q) => this.pool.query(q));
    checkStatement(signal);
    const held = new Held(await this.pool.connect());
    try {
      return await this.names.run(q, (q) => held.query(q, signal));
    } finally {
      held.release();
    }
  }
  async all<T extends object = Row>(sql: string, params: readonly SqlValue[] = [], how?: ReadOptions): Promise<T[]> {
    return (await this.query(sql, params, how)).rows as T[];
  }
  async get<T extends object = Row>(
    sql: string,
    params: readonly SqlValue[] = [],
    how?: ReadOptions,
  ): Promise<T | undefined> {
    return (await this.all<T>(sql, params, how))[0];
  }
  async run(sql: string, params: readonly SqlValue[] = []): Promise<{ changes: number }> {
    return { changes: (await this.query(sql, params)).rowCount ?? 0 };
  }
}

class PgDatabase extends PgRunner implements SiteDatabase {
  readonly dialect = 'postgres' as const;
  constructor(
    private readonly clients: Pool,
    private readonly statementNames = new PgStatementNames(),
  ) {
    super(clients, statementNames);
  }
  async transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T> {
    const signal = statementSignal();
    checkStatement(signal);
    const held = new Held(await this.clients.connect());
    let broken = false;
    try {
      await held.query({ text: 'BEGIN' }, signal);
      try {
        const out = await fn(new PgRunner(this.clients, this.statementNames, held));
        await held.query({ text: 'COMMIT' }, signal);
        return out;
      } catch (e) {
        // After a cancel the client is destroyed, which ends its transaction on the server.
        if (!held.cancelled) await held.client.query('ROLLBACK').catch(() => (broken = true));
        throw e;
      }
    } finally {
      held.release(broken);
    }
  }
  async connection<T>(fn: (c: SqlRunner) => Promise<T>): Promise<T> {
    checkStatement(statementSignal());
    const held = new Held(await this.clients.connect());
    let broken = false;
    try {
      return await fn(new PgRunner(this.clients, this.statementNames, held));
    } catch (e) {
      // Session advisory locks may still be held on it: destroying the client ends them.
      broken = true;
      throw e;
    } finally {
      held.release(broken);
    }
  }
  poolUse(): { total: number; idle: number; waiting: number } {
    return { total: this.clients.totalCount, idle: this.clients.idleCount, waiting: this.clients.waitingCount };
  }
  async close(): Promise<void> {
    await this.clients.end();
  }
}

/** A pool of at most `max` connections to `url` (default 4: one site's own pool). */
export async function openPostgres(url: string, max = 4): Promise<SiteDatabase> {
  let pg: typeof import('pg');
  try {
    pg = (await import('pg')).default as unknown as typeof import('pg');
  } catch {
    throw new Error('site.json names a PostgreSQL database, but the package "pg" is not installed (npm install pg)');
  }
  const asNumber = (v: string): number => Number(v);
  const pool = new pg.Pool({
    connectionString: url,
    max,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8 || oid === NUMERIC
          ? asNumber
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // A broken idle connection must not crash the embedding process (an 'error' without a listener throws).
  pool.on('error', () => {});
  return new PgDatabase(pool);
}
