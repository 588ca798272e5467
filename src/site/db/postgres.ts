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
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import type { ReadOptions, Row, SiteDatabase, SqlRunner, SqlValue } from './database.js';
import type { Pool, PoolClient, QueryConfig, QueryResult } from 'pg';
import { MAX_RENDER_ROWS, checkStatement, renderEnded, statementSignal, tooManyRows } from './render-statements.js';

const INT8 = 20;
const NUMERIC = 1700;

/** `?` -> `$n`. The SQL of the adapters keeps `?` out of string literals (database.ts). */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/**
 * How many texts get a name (ReadOptions.prepared, D368), for the whole process: each is prepared
 * once on every pooled connection that runs it and kept there, so this bounds what the server
 * holds per connection. Past it a text runs unnamed, as every statement did before.
 */
export const MAX_PREPARED_TEXTS = 128;
const preparedNames = new Map<string, string>();
/**
 * Set for good once the server has lost a name pg thinks it prepared (a `DEALLOCATE` or `DISCARD
 * ALL`, a pooler in transaction mode handing this connection another server session): from then
 * on every statement of the process runs unnamed, as before D368.
 */
let namesLost = false;

/** A statement as pg runs it: named (prepared once per connection) when asked and within the bound. */
export function pgStatement(text: string, values: SqlValue[], how: ReadOptions | undefined): QueryConfig<SqlValue[]> {
  if (!how?.prepared || namesLost) return { text, values };
  let name = preparedNames.get(text);
  if (name === undefined && preparedNames.size < MAX_PREPARED_TEXTS) {
    name = `smartcage_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    preparedNames.set(text, name);
  }
  return name === undefined ? { text, values } : { name, text, values };
}

/** invalid_sql_statement_name ("does not exist") and duplicate_prepared_statement ("already exists"). */
const LOST_NAME = new Set(['26000', '42P05']);

/**
 * `run(q)`; when q is named and the server does not hold that name as pg believes, once more
 * unnamed (a read: running it again has no effect), and no name again in this process.
 */
async function withNameFallback(q: QueryConfig<SqlValue[]>, run: (q: QueryConfig<SqlValue[]>) => Promise<QueryResult>) {
  if (q.name === undefined) return run(q);
  try {
    return await run(q);
  } catch (e) {
    if (!LOST_NAME.has((e as { code?: string }).code ?? '')) throw e;
    namesLost = true;
    return run({ text: q.text, values: q.values! });
  }
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
    private readonly held?: Held,
  ) {}

  private async query(sql: string, params: readonly SqlValue[], how?: ReadOptions): Promise<QueryResult> {
    // In a transaction a failed statement fails the transaction: there no statement is named.
    if (this.held)
      return this.held.query({ text: numberPlaceholders(sql), values: params as SqlValue[] }, statementSignal());
    const q = pgStatement(numberPlaceholders(sql), params as SqlValue[], how);
    const signal = statementSignal();
    if (!signal) return withNameFallback(q, (q) => this.pool.query(q));
    checkStatement(signal);
    const held = new Held(await this.pool.connect());
    try {
      return await withNameFallback(q, (q) => held.query(q, signal));
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
  constructor(private readonly clients: Pool) {
    super(clients);
  }
  async transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T> {
    const signal = statementSignal();
    checkStatement(signal);
    const held = new Held(await this.clients.connect());
    let broken = false;
    try {
      await held.query({ text: 'BEGIN' }, signal);
      try {
        const out = await fn(new PgRunner(this.clients, held));
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
      return await fn(new PgRunner(this.clients, held));
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
