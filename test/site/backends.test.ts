import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PG_URL, eachBackend } from './support/backends.js';
import { openDatabase, type SiteDatabase } from '../../src/site/db/database.js';
import { numberPlaceholders } from '../../src/site/db/postgres.js';

describe('the PostgreSQL backend is tested where CI says so', () => {
  it('has a server when SMARTCAGE_REQUIRE_PG is set', () => {
    if (process.env.SMARTCAGE_REQUIRE_PG)
      expect(PG_URL, 'SMARTCAGE_PG_URL (scripts/ci/postgres.sh)').toMatch(/^postgres:\/\//);
    else expect(process.env.SMARTCAGE_REQUIRE_PG).toBeUndefined();
  });
  it('numbers placeholders in order', () => {
    expect(numberPlaceholders('SELECT ? , ?, x FROM t WHERE a = ?')).toBe('SELECT $1 , $2, x FROM t WHERE a = $3');
  });
});

eachBackend('the store contract', (backend) => {
  let db: SiteDatabase;
  let dir: string;
  const table = `contract_${process.pid}_${Math.floor(Math.random() * 1e9)}`;

  it('opens, and gives numbers for integers and counts', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'smartcage-db-'));
    db = await openDatabase({ url: backend.url, sqlitePath: path.join(dir, 'x.sqlite') });
    await db.run(
      `CREATE TABLE ${table} (tenant TEXT NOT NULL, id BIGINT NOT NULL, name TEXT, PRIMARY KEY (tenant, id))`,
    );
    await db.run(`INSERT INTO ${table} (tenant, id, name) VALUES (?, ?, ?), (?, ?, ?)`, ['a', 1, 'one', 'a', 2, 'two']);
    const row = await db.get<{ n: number; m: number }>(
      `SELECT COUNT(*) AS n, MAX(id) AS m FROM ${table} WHERE tenant = ?`,
      ['a'],
    );
    expect(row).toEqual({ n: 2, m: 2 });
  });

  it('rolls a failed transaction back whole: no torn rows', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.run(`UPDATE ${table} SET name = ? WHERE tenant = ? AND id = ?`, ['changed', 'a', 1]);
        await tx.run(`INSERT INTO ${table} (tenant, id, name) VALUES (?, ?, ?)`, ['a', 2, 'duplicate key']);
      }),
    ).rejects.toThrow();
    expect(await db.all(`SELECT id, name FROM ${table} WHERE tenant = ? ORDER BY id`, ['a'])).toEqual([
      { id: 1, name: 'one' },
      { id: 2, name: 'two' },
    ]);
  });

  it('keeps calls made during a transaction out of it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const tx = db.transaction(async (t) => {
      await t.run(`INSERT INTO ${table} (tenant, id, name) VALUES (?, ?, ?)`, ['a', 3, 'three']);
      await gate;
      throw new Error('abandoned');
    });
    const outside = db.run(`INSERT INTO ${table} (tenant, id, name) VALUES (?, ?, ?)`, ['a', 4, 'four']);
    release();
    await expect(tx).rejects.toThrow('abandoned');
    await outside;
    expect(
      (await db.all<{ id: number }>(`SELECT id FROM ${table} WHERE tenant = ? ORDER BY id`, ['a'])).map((r) => r.id),
    ).toEqual([1, 2, 4]);
  });

  it('closes', async () => {
    await db.run(`DROP TABLE ${table}`);
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
