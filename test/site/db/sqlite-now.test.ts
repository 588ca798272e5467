/**
 * SQLite's reads answered at once (`SiteDatabase.now`, D268): the same rows as the async reads,
 * the same row cap and render signal, and E_SLICE_YIELD while a transaction holds the connection
 * (a read at once would land inside another call's transaction); the content-versioned handle
 * passes reads only; a snapshot (D361) runs several reads on one state of the file. PostgreSQL has
 * no such face.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeError } from '../../../src/index.js';
import { withRenderSignal } from '../../../src/host-api/render-signal.js';
import { openSqlite } from '../../../src/site/db/sqlite.js';
import { MAX_RENDER_ROWS } from '../../../src/site/db/render-statements.js';
import { versionedDatabase } from '../../../src/site/db/content-version.js';
import type { SiteDatabase } from '../../../src/site/db/database.js';

const MANY = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${MAX_RENDER_ROWS + 1}) SELECT i FROM n`;

let db: SiteDatabase | null = null;
afterEach(async () => {
  await db?.close();
  db = null;
});

async function fresh(): Promise<SiteDatabase> {
  db = openSqlite(':memory:');
  await db.run('CREATE TABLE t (n INTEGER)');
  await db.run('INSERT INTO t (n) VALUES (1), (2), (3)');
  return db;
}

const codeOf = (f: () => unknown): string => {
  try {
    f();
    return 'done';
  } catch (e) {
    return e instanceof BridgeError ? e.code : String(e);
  }
};

describe("SQLite's reads answered at once", () => {
  it('answer what the async reads answer', async () => {
    const d = await fresh();
    expect(d.now!.all('SELECT n FROM t ORDER BY n')).toEqual(await d.all('SELECT n FROM t ORDER BY n'));
    expect(d.now!.get('SELECT n FROM t WHERE n = ?', [2])).toEqual({ n: 2 });
  });

  it("keep a render's row cap and refuse a statement for a render that is over", async () => {
    const d = await fresh();
    const live = new AbortController();
    expect(codeOf(() => withRenderSignal(live.signal, () => d.now!.all(MANY)))).toBe('E_SIZE_LIMIT');
    live.abort();
    expect(codeOf(() => withRenderSignal(live.signal, () => d.now!.all('SELECT n FROM t')))).toBe('E_BRIDGE_CLOSED');
  });

  it('answer E_SLICE_YIELD while a transaction holds the connection, and read again once it ends', async () => {
    const d = await fresh();
    let inside = '';
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = d.transaction(async (t) => {
      await t.run('INSERT INTO t (n) VALUES (4)');
      inside = codeOf(() => d.now!.all('SELECT n FROM t'));
      await held;
    });
    await new Promise((r) => setImmediate(r));
    // Between two statements of the transaction, from another caller: the uncommitted row must not be seen.
    expect(codeOf(() => d.now!.all('SELECT n FROM t'))).toBe('E_SLICE_YIELD');
    release();
    await tx;
    expect(inside).toBe('E_SLICE_YIELD');
    expect(d.now!.all<{ n: number }>('SELECT n FROM t').map((r) => r.n)).toEqual([1, 2, 3, 4]);
  });

  it('through the content-versioned handle of a site, pass reads and refuse a write', async () => {
    const d = await fresh();
    await d.run('CREATE TABLE content_versions (tenant TEXT PRIMARY KEY, version INTEGER NOT NULL)');
    const { db: versioned } = versionedDatabase(d, 'demo', true);
    expect(versioned.now!.all('SELECT n FROM t ORDER BY n')).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(() => versioned.now!.all('INSERT INTO t (n) VALUES (9) RETURNING n')).toThrow(/writes/);
    expect(await d.all('SELECT n FROM t WHERE n = 9')).toEqual([]);
  });

  it('in one snapshot, see one state of the file while another connection writes, then see the write', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sqlite-snapshot-'));
    const file = path.join(dir, 'site.sqlite');
    // Another connection (another process of the site), writing at once between two reads.
    const writer = new DatabaseSync(file);
    try {
      writer.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (n INTEGER); INSERT INTO t (n) VALUES (1)');
      const d = (db = openSqlite(file));
      const count = () => d.now!.get<{ c: number }>('SELECT count(*) AS c FROM t')!.c;
      const seen: number[] = [];
      d.now!.snapshot(() => {
        seen.push(count());
        writer.exec('INSERT INTO t (n) VALUES (2)');
        // Nested: runs in the same read transaction.
        seen.push(d.now!.snapshot(count));
      });
      seen.push(count());
      expect(seen).toEqual([1, 1, 2]);
    } finally {
      writer.close();
      await db?.close();
      db = null;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('end a snapshot that throws, and leave the connection free for a transaction', async () => {
    const d = await fresh();
    expect(
      codeOf(() =>
        d.now!.snapshot(() => {
          d.now!.all('SELECT n FROM t');
          throw new Error('the read failed');
        }),
      ),
    ).toBe('Error: the read failed');
    await d.transaction(async (t) => void (await t.run('INSERT INTO t (n) VALUES (4)')));
    expect(d.now!.snapshot(() => d.now!.all<{ n: number }>('SELECT n FROM t').length)).toBe(4);
  });

  it('refuse a snapshot while a transaction holds the connection', async () => {
    const d = await fresh();
    let inside = '';
    await d.transaction(async () => {
      inside = codeOf(() => d.now!.snapshot(() => d.now!.all('SELECT n FROM t')));
    });
    expect(inside).toBe('E_SLICE_YIELD');
  });
});
