/**
 * One queue contract (src/site/batches/queue.ts), the same tests on every backend: the site
 * store on SQLite and PostgreSQL, and BullMQ on Redis. Among them a worker killed with SIGKILL
 * in the middle of a job: its run is claimed again once the lease expires, and nothing queued
 * is lost.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { eachQueue, newTarget, openTarget, type QueueTarget } from './support/queues.js';
import { MAX_ATTEMPTS, type BatchQueue, type NewRun, type QueuedRun } from '../../../src/site/batches/queue.js';
import type { SiteDatabase } from '../../../src/site/db/database.js';

const LEASE_MS = 600;
const DOOMED = fileURLToPath(new URL('./support/doomed-worker.ts', import.meta.url));

const run = (slug: string, over: Partial<NewRun> = {}): NewRun => ({
  slug,
  module: null,
  data: '{"k":1}',
  origin: 'batch',
  requestId: 'r1',
  depth: 0,
  dedupeKey: null,
  ...over,
});

/** Claims until a run comes or `ms` pass (an expired lease is seen by BullMQ's stalled check, every half lease). */
async function claimWithin(q: BatchQueue, owner: string, ms: number): Promise<QueuedRun | null> {
  const end = Date.now() + ms;
  for (;;) {
    const r = await q.claim(owner);
    if (r || Date.now() > end) return r;
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** Starts a worker process that claims one run and hangs; resolves with the run it claimed. */
function doomedWorker(target: QueueTarget): Promise<{ run: QueuedRun; kill(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', DOOMED, JSON.stringify(target), String(LEASE_MS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    createInterface({ input: child.stdout! }).once('line', (line) => {
      resolve({
        run: JSON.parse(line) as QueuedRun,
        async kill() {
          child.kill('SIGKILL');
          await exited;
        },
      });
    });
  });
}

eachQueue('the batch queue contract', (backend) => {
  let target: QueueTarget;
  let cleanup: () => void;
  let queue: BatchQueue;
  let db: SiteDatabase | undefined;
  const others: BatchQueue[] = [];

  beforeAll(async () => {
    ({ target, cleanup } = newTarget(backend));
    ({ queue, db } = await openTarget(target, LEASE_MS));
  });
  afterAll(async () => {
    for (const q of [queue, ...others]) await q.close();
    await db?.close();
    cleanup();
  });

  it('numbers runs from 1 and hands them out oldest first, each to one worker', async () => {
    expect(await queue.enqueue(run('a'))).toBe(1);
    expect(await queue.enqueue(run('b'))).toBe(2);
    expect(await queue.counts()).toEqual({ queued: 2, running: 0 });
    const first = await queue.claim('w1');
    const second = await queue.claim('w2');
    expect([first?.id, first?.slug, first?.attempt, first?.data]).toEqual([1, 'a', 1, '{"k":1}']);
    expect([second?.id, second?.slug]).toEqual([2, 'b']);
    expect(await queue.claim('w3')).toBeNull();
    expect(await queue.counts()).toEqual({ queued: 0, running: 2 });
  });

  it('lets only the lease holder renew and finish a run', async () => {
    expect(await queue.renew(1, 'w2')).toBe('lost');
    expect(await queue.finish(1, 'w2', 'done')).toBe(false);
    expect(await queue.renew(1, 'w1')).toBe('held');
    expect(await queue.finish(1, 'w1', 'done')).toBe(true);
    expect(await queue.finish(1, 'w1', 'done')).toBe(false);
    expect(await queue.finish(2, 'w2', 'failed', 'boom')).toBe(true);
    expect(await queue.counts()).toEqual({ queued: 0, running: 0 });
  });

  it('queues one run per dedupe key, even after it ran', async () => {
    const id = await queue.enqueue(run('c', { dedupeKey: 'slot-1' }));
    expect(await queue.enqueue(run('c', { dedupeKey: 'slot-1' }))).toBe(id);
    const r = await queue.claim('w1');
    expect(r?.id).toBe(id);
    expect(await queue.finish(id, 'w1', 'done')).toBe(true);
    expect(await queue.enqueue(run('c', { dedupeKey: 'slot-1' }))).toBe(id);
    expect(await queue.claim('w1')).toBeNull();
    expect(await queue.enqueue(run('c', { dedupeKey: 'slot-2' }))).toBeGreaterThan(id);
    const next = await queue.claim('w1');
    await queue.finish(next!.id, 'w1', 'done');
  });

  it("gives a dead worker's run to another once the lease expires (SIGKILL mid-job); nothing is lost", async () => {
    const doomedId = await queue.enqueue(run('doomed', { data: '{"2":"b","1":"a"}' }));
    const waitingId = await queue.enqueue(run('waiting'));
    const worker = await doomedWorker(target);
    expect(worker.run.id).toBe(doomedId);
    // While the worker lives and renews, its run is not handed out again.
    await new Promise((res) => setTimeout(res, LEASE_MS * 1.5));
    const meanwhile = await queue.claim('w2');
    expect(meanwhile?.id).toBe(waitingId);
    await queue.finish(waitingId, 'w2', 'done');
    expect(await queue.claim('w2')).toBeNull();

    await worker.kill();
    const again = await claimWithin(queue, 'w2', LEASE_MS * 6);
    expect(again).toMatchObject({ id: doomedId, slug: 'doomed', attempt: 2, data: '{"2":"b","1":"a"}' });
    // The dead worker's lease is gone: it could not finish the run now.
    expect(await queue.finish(doomedId, 'doomed', 'done')).toBe(false);
    expect(await queue.finish(doomedId, 'w2', 'done')).toBe(true);
    expect(await queue.counts()).toEqual({ queued: 0, running: 0 });
  }, 30_000);

  it(`fails a run whose workers died ${MAX_ATTEMPTS} times rather than claim it again`, async () => {
    const id = await queue.enqueue(run('crashes'));
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const r = await claimWithin(queue, `dies-${attempt}`, LEASE_MS * 6);
      expect([r?.id, r?.attempt]).toEqual([id, attempt]);
    }
    await new Promise((res) => setTimeout(res, LEASE_MS * 3));
    expect(await claimWithin(queue, 'w9', LEASE_MS * 2)).toBeNull();
    expect(await queue.counts()).toEqual({ queued: 0, running: 0 });
  }, 30_000);

  it("cancels a queued run before any claim, and tells a running run's worker at its next renewal", async () => {
    const queued = await queue.enqueue(run('never'));
    expect(await queue.cancel(queued)).toBe('cancelled');
    expect(await queue.claim('w1')).toBeNull();
    expect(await queue.cancel(queued)).toBe('finished');
    expect(await queue.cancel(9999)).toBe('unknown');

    const running = await queue.enqueue(run('stopped'));
    expect((await queue.claim('w1'))?.id).toBe(running);
    expect(await queue.renew(running, 'w1')).toBe('held');
    expect(await queue.cancel(running)).toBe('cancelling');
    expect(await queue.renew(running, 'w1')).toBe('cancelled');
    expect(await queue.finish(running, 'w1', 'cancelled')).toBe(true);
    expect(await queue.counts()).toEqual({ queued: 0, running: 0 });
  });

  it('does not run again a cancelled run whose worker died before it saw the cancel', async () => {
    const id = await queue.enqueue(run('orphan'));
    expect((await queue.claim('dies'))?.id).toBe(id);
    expect(await queue.cancel(id)).toBe('cancelling');
    await new Promise((res) => setTimeout(res, LEASE_MS * 1.5));
    expect(await queue.claim('w2')).toBeNull();
    expect(await queue.counts()).toEqual({ queued: 0, running: 0 });
  });

  it('keeps tenants apart', async () => {
    const { target: other, cleanup: c2 } = newTarget(backend);
    const theirs = await openTarget({ ...other, where: target.where }, LEASE_MS);
    others.push(theirs.queue);
    expect(await theirs.queue.enqueue(run('theirs'))).toBe(1);
    expect(await queue.claim('w1')).toBeNull();
    expect((await theirs.queue.claim('w1'))?.slug).toBe('theirs');
    await theirs.db?.close();
    c2();
  });
});
