/**
 * Which statements get a name, kept prepared on PostgreSQL's connections (D368): only texts marked
 * prepared, one name per text, at most MAX_PREPARED_TEXTS per pool; a pool whose names the server
 * lost runs unnamed from then on, and another pool's names are not touched.
 */
import { describe, expect, it } from 'vitest';
import type { QueryConfig, QueryResult } from 'pg';
import { MAX_PREPARED_TEXTS, PgStatementNames } from '../../../src/site/db/pg-statement-names.js';
import type { SqlValue } from '../../../src/site/db/database.js';

describe('named statements', () => {
  it('are only the texts marked prepared, one name per text, at most MAX_PREPARED_TEXTS', () => {
    const pool = new PgStatementNames();
    expect(pool.statement('SELECT $1', [1], undefined)).toEqual({ text: 'SELECT $1', values: [1] });
    expect(pool.statement('SELECT $1', [1], { prepared: false })).not.toHaveProperty('name');
    const first = pool.statement('SELECT 0 AS n', [], { prepared: true });
    expect(first.name).toMatch(/^smartcage_[0-9a-f]{32}$/);
    expect(pool.statement('SELECT 0 AS n', [], { prepared: true }).name).toBe(first.name);
    const names = new Set([first.name]);
    for (let i = 1; i < MAX_PREPARED_TEXTS; i++)
      names.add(pool.statement(`SELECT ${i} AS n`, [], { prepared: true }).name);
    expect(names.size).toBe(MAX_PREPARED_TEXTS);
    // Past the bound a new text runs unnamed; those named keep their names.
    expect(pool.statement('SELECT -1 AS n', [], { prepared: true })).not.toHaveProperty('name');
    expect(pool.statement('SELECT 0 AS n', [], { prepared: true }).name).toBe(first.name);
    // The bound is the pool's: another pool names a new text.
    expect(new PgStatementNames().statement('SELECT -1 AS n', [], { prepared: true }).name).toMatch(/^smartcage_/);
  });

  it('run again unnamed once the server lost a name, and stop naming on that pool only', async () => {
    const lost = new PgStatementNames();
    const other = new PgStatementNames();
    const ran: QueryConfig<SqlValue[]>[] = [];
    // What pg answers when the server holds no such prepared statement (SQLSTATE 26000).
    const server = async (q: QueryConfig<SqlValue[]>): Promise<QueryResult> => {
      ran.push(q);
      if (q.name) throw Object.assign(new Error('prepared statement does not exist'), { code: '26000' });
      return { rows: [{ n: 1 }] } as unknown as QueryResult;
    };
    const q = lost.statement('SELECT 1 AS n', [], { prepared: true });
    expect((await lost.run(q, server)).rows).toEqual([{ n: 1 }]);
    expect(ran.map((r) => r.name)).toEqual([q.name, undefined]);
    expect(lost.statement('SELECT 1 AS n', [], { prepared: true })).not.toHaveProperty('name');
    expect(other.statement('SELECT 1 AS n', [], { prepared: true }).name).toBe(q.name);
    // Any other failure is the statement's own, not retried.
    const failing = async (): Promise<QueryResult> => {
      throw Object.assign(new Error('syntax error'), { code: '42601' });
    };
    await expect(other.run(other.statement('SELECT 1 AS n', [], { prepared: true }), failing)).rejects.toThrow(
      'syntax',
    );
    expect(other.statement('SELECT 1 AS n', [], { prepared: true }).name).toBe(q.name);
  });
});
