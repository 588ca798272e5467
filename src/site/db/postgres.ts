/**
 * The PostgreSQL backend (site.json `database`: a postgres:// URL), on `pg`, an optional peer
 * dependency loaded only here. `?` placeholders become `$1..$n`; BIGINT and NUMERIC come back as
 * numbers, as SQLite gives them, so adapters see one shape from both.
 */
import type { Row, SiteDatabase, SqlRunner, SqlValue } from './database.js';
import type { Pool, PoolClient } from 'pg';

const INT8 = 20;
const NUMERIC = 1700;

/** `?` -> `$n`. The SQL of the adapters keeps `?` out of string literals (database.ts). */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

class PgRunner implements SqlRunner {
  constructor(private readonly q: Pool | PoolClient) {}
  async all<T extends object = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    const r = await this.q.query(numberPlaceholders(sql), params as SqlValue[]);
    return r.rows as T[];
  }
  async get<T extends object = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }
  async run(sql: string, params: readonly SqlValue[] = []): Promise<{ changes: number }> {
    const r = await this.q.query(numberPlaceholders(sql), params as SqlValue[]);
    return { changes: r.rowCount ?? 0 };
  }
}

class PgDatabase extends PgRunner implements SiteDatabase {
  readonly dialect = 'postgres' as const;
  constructor(private readonly pool: Pool) {
    super(pool);
  }
  async transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      try {
        const out = await fn(new PgRunner(client));
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK');
        throw e;
      }
    } finally {
      client.release();
    }
  }
  async connection<T>(fn: (c: SqlRunner) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      return await fn(new PgRunner(client));
    } catch (e) {
      broken = true;
      throw e;
    } finally {
      client.release(broken);
    }
  }
  poolUse(): { total: number; idle: number; waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }
  async close(): Promise<void> {
    await this.pool.end();
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
