/**
 * The storage's shared locks and usage count in the site database (src/site/db/
 * store-coordination.ts), on both backends, through two handles of one database (two pools on
 * PostgreSQL, two connections to one file on SQLite): what two processes would each hold.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type SiteDatabase } from '../../../src/site/db/database.js';
import { databaseLocks, databaseUsage } from '../../../src/site/db/store-coordination.js';
import { migrate } from '../../../src/site/schema/index.js';
import { eachBackend } from '../support/backends.js';

const limits = { quotaBytes: 1000, maxStorageEntries: 50 };
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

eachBackend('shared storage locks and usage', (backend) => {
  let dir: string;
  let a: SiteDatabase;
  let b: SiteDatabase;
  const tenant = () => `t${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'smartcage-coord-'));
    const target = { url: backend.url, sqlitePath: path.join(dir, 'site.sqlite') };
    a = await openDatabase(target);
    await migrate(a);
    b = await openDatabase(target);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a key is held by one holder at a time, across handles; other keys are not held up', async () => {
    const t = tenant();
    const [la, lb] = [databaseLocks(a, t), databaseLocks(b, t)];
    let inside = 0;
    let most = 0;
    const order: string[] = [];
    const hold = (l: typeof la, name: string) =>
      l.withLocks(
        ['s3:bucket/x'],
        async () => {
          most = Math.max(most, ++inside);
          await tick(20);
          order.push(name);
          inside--;
          return name;
        },
        { waitMs: 10_000 },
      );
    const results = await Promise.all([hold(la, 'a1'), hold(lb, 'b1'), hold(la, 'a2'), hold(lb, 'b2')]);
    expect(results).toEqual(['a1', 'b1', 'a2', 'b2'].map((value) => ({ ok: true, value })));
    expect(most).toBe(1);
    expect(order).toHaveLength(4);
    // Another key of the same tenant, and the same key of another tenant, do not wait.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const held = la.withLocks(['s3:bucket/y'], () => gate, { waitMs: 1000 });
    await tick(50);
    expect(await lb.withLocks(['s3:bucket/z'], async () => 'free', { waitMs: 200 })).toEqual({
      ok: true,
      value: 'free',
    });
    expect(await databaseLocks(b, tenant()).withLocks(['s3:bucket/y'], async () => 'other', { waitMs: 200 })).toEqual({
      ok: true,
      value: 'other',
    });
    release();
    await held;
  });

  it('a wait is capped (timeout) and stops when the signal aborts; fn never runs then', async () => {
    const t = tenant();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const held = databaseLocks(a, t).withLocks(['k'], () => gate, { waitMs: 5000 });
    await tick(50);
    let ran = false;
    const run = async () => void (ran = true);
    const timedOut = await databaseLocks(b, t).withLocks(['k'], run, { waitMs: 150 });
    expect(timedOut).toMatchObject({ ok: false, reason: 'timeout' });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const aborted = await databaseLocks(b, t).withLocks(['k'], run, { waitMs: 20_000, signal: ac.signal });
    expect(aborted).toMatchObject({ ok: false, reason: 'aborted' });
    release();
    await held;
    await tick(50);
    expect(ran).toBe(false);
    // Free again once the holder is done.
    expect(await databaseLocks(b, t).withLocks(['k'], async () => 1, { waitMs: 5000 })).toEqual({ ok: true, value: 1 });
  });

  it('several keys at once, asked in opposite orders, never deadlock', async () => {
    const t = tenant();
    const runs = Array.from({ length: 6 }, (_, i) =>
      databaseLocks(i % 2 ? a : b, t).withLocks(i % 2 ? ['p', 'q'] : ['q', 'p'], async () => tick(5).then(() => i), {
        waitMs: 10_000,
      }),
    );
    expect((await Promise.all(runs)).every((r) => r.ok)).toBe(true);
  });

  if (backend.name === 'sqlite') {
    it('a lock row of a dead process of this host is taken over at once', async () => {
      const t = tenant();
      await a.run('INSERT INTO storage_locks (tenant, lock_key, owner, expires) VALUES (?, ?, ?, ?)', [
        t,
        'k',
        `${hostname()}:999999999:dead`,
        Date.now() + 3_600_000,
      ]);
      expect(await databaseLocks(b, t).withLocks(['k'], async () => 'mine', { waitMs: 1000 })).toEqual({
        ok: true,
        value: 'mine',
      });
      expect(await a.get('SELECT owner FROM storage_locks WHERE tenant = ?', [t])).toBeUndefined();
    });
  }

  it('reservations are atomic across handles: exactly the limit is handed out, releases give it back', async () => {
    const t = tenant();
    const [ua, ub] = [databaseUsage(a, t), databaseUsage(b, t)];
    expect(await ua.get()).toBeNull();
    await ua.seed({ bytes: 0, entries: 0 });
    await ub.seed({ bytes: 999, entries: 999 }); // a second first count changes nothing
    const tries = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? ua : ub).reserve(100, 1, limits)));
    expect(tries.filter((r) => r === 'ok')).toHaveLength(10);
    expect(tries.filter((r) => r !== 'ok').every((r) => r === 'bytes')).toBe(true);
    expect(await ub.get()).toEqual({ bytes: 1000, entries: 10 });
    // A shrinking replacement always passes; entries have their own limit.
    expect(await ua.reserve(-300, 0, limits)).toBe('ok');
    expect(await ua.reserve(0, 41, limits)).toBe('entries');
    expect(await ua.reserve(0, 40, limits)).toBe('ok');
    await ub.release(700, 50);
    expect(await ua.get()).toEqual({ bytes: 0, entries: 0 });
    await ub.release(5, 5); // never below zero
    expect(await ua.get()).toEqual({ bytes: 0, entries: 0 });
  });
});
