/**
 * A BullMQ site's Redis loses its data or goes away (issue: many nodes, one truth). The site store
 * keeps every run, so: runs acknowledged before a FLUSHALL still run, run ids are never handed out
 * twice, no history row is overwritten, and a start made while Redis is down fails at once and
 * has no later effect when Redis comes back. Each test runs its own redis-server (a throwaway
 * one, as scripts/ci/redis.sh starts), since it stops and flushes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { openDatabase, type SiteDatabase } from '../../../src/site/db/database.js';
import { migrate } from '../../../src/site/schema/index.js';
import { openBullQueue } from '../../../src/site/batches/bullmq-queue.js';
import { QueueUnavailable, type BatchQueue, type NewRun } from '../../../src/site/batches/queue.js';
import { REDIS_URL } from './support/queues.js';
import { batchSite, SITE_QUEUES } from './support/sites.js';
import { failureOf } from '../support/site-with.js';

const run = (slug: string, over: Partial<NewRun> = {}): NewRun => ({
  slug,
  module: null,
  data: '[]',
  origin: 'batch',
  requestId: `r-${slug}`,
  depth: 0,
  dedupeKey: null,
  ...over,
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A redis-server of this test's own, without persistence. */
class OwnRedis {
  private child: ChildProcess | null = null;
  constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }
  async start(): Promise<void> {
    this.child = spawn(
      'redis-server',
      ['--bind', '127.0.0.1', '--port', String(this.port), '--dir', this.dir, '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
    probe.on('error', () => {});
    for (let i = 0; i < 100; i++) {
      try {
        await probe.connect();
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    await probe.ping();
    probe.disconnect();
  }
  async stop(): Promise<void> {
    const c = this.child;
    this.child = null;
    if (!c || c.exitCode !== null) return;
    const gone = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await gone;
  }
  async flushAll(): Promise<void> {
    const r = new Redis(this.url);
    await r.flushall();
    r.disconnect();
  }
}

// The same servers CI gives the other BullMQ tests; skipped, not passed, without them.
(REDIS_URL ? describe : describe.skip)('a BullMQ site whose Redis loses its data or goes away', () => {
  let dir: string;
  let redis: OwnRedis;
  let db: SiteDatabase;
  const queues: BatchQueue[] = [];
  const open = async (tenant: string) => {
    const q = await openBullQueue(redis.url, db, tenant, 5000);
    queues.push(q);
    return q;
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'smartcage-redis-loss-'));
    redis = new OwnRedis(await freePort(), dir);
    await redis.start();
    db = await openDatabase({ sqlitePath: path.join(dir, 'site.sqlite') });
    await migrate(db);
  });
  afterAll(async () => {
    for (const q of queues) await q.close();
    await db.close();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps runs acknowledged before a FLUSHALL and never gives an id twice', async () => {
    const q = await open('flushed');
    const a = await q.enqueue(run('a'));
    const b = await q.enqueue(run('b'));
    const first = await q.claim('w1');
    expect(first?.id).toBe(a);
    expect(await q.finish(a, 'w1', 'done')).toBe(true);

    await redis.flushAll();
    // Run b was acknowledged before the flush: it is still handed out, from the store.
    const second = await q.claim('w1');
    expect([second?.id, second?.slug]).toEqual([b, 'b']);
    expect(await q.finish(b, 'w1', 'done')).toBe(true);
    // Ids go on from the store's counter, not from 1 again.
    const c = await q.enqueue(run('c'));
    expect(c).toBe(b + 1);
    expect((await q.claim('w2'))?.id).toBe(c);
    expect(await q.claim('w2')).toBeNull();
  });

  it('fails a start at once while Redis is down, and the failed start never runs later', async () => {
    const q = await open('down');
    const kept = await q.enqueue(run('before'));
    await redis.stop();
    await expect(q.enqueue(run('while-down'))).rejects.toBeInstanceOf(QueueUnavailable);
    // The store still hands out what was acknowledged, Redis or not.
    expect((await q.claim('w1'))?.id).toBe(kept);
    await q.finish(kept, 'w1', 'done');

    await redis.start();
    // Nothing of the refused start reached the store or Redis: no worker, old or new, gets it.
    const fresh = await open('down');
    expect(await fresh.claim('w2')).toBeNull();
    expect(await q.claim('w1')).toBeNull();
    expect(await q.counts()).toEqual({ queued: 0, running: 0 });
    const rows = await db.all<{ slug: string }>('SELECT slug FROM batch_queue WHERE tenant = ? ORDER BY id', ['down']);
    expect(rows.map((r) => r.slug)).toEqual(['before']);
    // And starts work again once it is back.
    expect(await fresh.enqueue(run('after'))).toBe(kept + 1);
  }, 30_000);
});

(REDIS_URL ? describe : describe.skip)('{batch} on a site whose Redis is down', () => {
  it("fails with E_HOST_UNAVAILABLE before the render's wall limit, and queues nothing", async () => {
    const v = { ...SITE_QUEUES.find((x) => x.name === 'bullmq')!, redis: `redis://127.0.0.1:${await freePort()}` };
    const site = await batchSite(v, { notify: 'sent' });
    try {
      const failure = await failureOf(
        site.engines.at(0).render('{batch name="notify" var=id}{$id}', {
          name: 'page.tpl',
          identity: site.identity({ memberId: null }),
        }),
      );
      expect(failure).toBe('E_HOST_UNAVAILABLE@1');
      const rows = await site.db.all('SELECT id FROM batch_queue WHERE tenant = ?', [site.tenant]);
      expect(rows).toEqual([]);
    } finally {
      await site.done();
    }
  }, 30_000);
});
