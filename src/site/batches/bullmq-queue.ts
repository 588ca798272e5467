/**
 * The batch queue of a site whose site.json names Redis (`batch_queue`): the site store keeps
 * every run (store-queue.ts: ids, dedupe keys, state, attempts, leases), and BullMQ on Redis only
 * carries the news that a run is waiting, so workers on other machines start it at once rather
 * than at their next poll (docs/decisions.md D122).
 *
 * Why the store and not Redis is the truth: a Redis that loses its data (a restart without
 * persistence, a FLUSHALL, a failover to a replica behind it) must neither lose an acknowledged
 * run nor hand out run ids a second time, and a history row must never be overwritten by another
 * run's. With ids, leases and attempts in the store, a flushed Redis costs latency only: a worker
 * that finds no job in Redis claims from the store directly.
 *
 * - enqueue: the run's row and the job are made in one store transaction. The job is added
 *   through a connection without an offline queue and within PUBLISH_MS, so a Redis that is down
 *   fails the start at once (E_HOST_UNAVAILABLE) and the transaction rolls back: nothing runs
 *   later. A job whose transaction did not commit finds no row, and its worker drops it.
 * - claim: a job taken from BullMQ is completed at once (it has done its work: waking a worker),
 *   then its run is claimed in the store by the same conditional UPDATE as the store backend. No
 *   job waiting, or Redis unreachable: the store's own claim. BullMQ's locks and stalled checks
 *   play no part, so a dead worker's run comes back when its store lease expires (the lease the
 *   runner was given) and no serve node's settings can stretch that.
 * - Serve nodes only enqueue: the Worker (a second connection) is made at the first claim.
 *
 * bullmq and ioredis are optional peer dependencies: only a site whose site.json names a Redis URL
 * loads them. The connections are made here and handed to BullMQ, which cannot load ioredis
 * itself from an ES module.
 */
import type { Job, Queue, Worker } from 'bullmq';
import type { Redis as RedisClient } from 'ioredis';
import type { SiteDatabase } from '../db/database.js';
import { StoreQueue } from './store-queue.js';
import {
  DEDUPE_SECONDS,
  QueueUnavailable,
  type BatchQueue,
  type CancelAnswer,
  type LeaseState,
  type NewRun,
  type QueueCounts,
  type QueuedRun,
  type RunEnd,
} from './queue.js';

/** How long a start waits for Redis to take its job before it fails. */
const PUBLISH_MS = 2000;
/** How long a claim waits for Redis before it claims from the store alone. */
const FETCH_MS = 1000;

type Libraries = { bull: typeof import('bullmq'); Redis: typeof import('ioredis').Redis };

async function libraries(): Promise<Libraries> {
  try {
    const [bull, { Redis }] = await Promise.all([import('bullmq'), import('ioredis')]);
    return { bull, Redis };
  } catch {
    throw new Error(
      'this site keeps its batch queue in Redis (site.json batch_queue): install the optional dependencies bullmq and ioredis',
    );
  }
}

export async function openBullQueue(
  url: string,
  db: SiteDatabase,
  tenant: string,
  leaseMs: number,
): Promise<BatchQueue> {
  const libs = await libraries();
  // No offline queue: a command sent while Redis is down fails at once instead of waiting to be
  // replayed when it is back (a start answered with an error must have no later effect).
  const connection = new libs.Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
  connection.on('error', () => {});
  // Connecting may fail (Redis down at start-up): the queue still opens, and starts fail until it is back.
  await connection.connect().catch(() => {});
  const queue = new libs.bull.Queue(`smartcage-batch-${tenant}`, { connection, prefix: 'smartcage' });
  queue.on('error', () => {});
  return new BullQueue(libs, url, queue, connection, new StoreQueue(db, tenant, leaseMs), tenant);
}

/** BullMQ takes no integers as job ids (they are its own counter's). */
const JOB_PREFIX = 'run-';
const jobId = (id: number) => `${JOB_PREFIX}${id}`;

/** `p`, or a rejection after `ms`. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

class BullQueue implements BatchQueue {
  readonly backend = 'bullmq';
  private worker: { bull: Worker<NewRun>; connection: RedisClient } | null = null;

  constructor(
    private readonly libs: Libraries,
    private readonly url: string,
    private readonly queue: Queue<NewRun>,
    private readonly connection: RedisClient,
    private readonly store: StoreQueue,
    private readonly tenant: string,
  ) {}

  async enqueue(run: NewRun): Promise<number> {
    return this.store.enqueue(run, async (id) => {
      try {
        await within(
          this.queue.add(run.slug, run, {
            jobId: jobId(id),
            removeOnComplete: { age: DEDUPE_SECONDS },
            removeOnFail: { age: DEDUPE_SECONDS },
          }),
          PUBLISH_MS,
          'Redis',
        );
      } catch (e) {
        throw new QueueUnavailable(
          `the batch queue (Redis) did not take the run: ${(e as Error).message.split('\n')[0]}`,
        );
      }
    });
  }

  async claim(owner: string): Promise<QueuedRun | null> {
    for (;;) {
      let job: Job<NewRun> | undefined;
      try {
        job = (await within(this.bullWorker().getNextJob(owner, { block: false }), FETCH_MS, 'Redis')) as
          Job<NewRun> | undefined;
      } catch {
        // Redis is down or slow: the store knows every waiting run.
        return this.store.claim(owner);
      }
      if (!job) return this.store.claim(owner);
      // The job has woken this worker; the run itself is claimed (or found taken) in the store.
      await job.moveToCompleted('delivered', owner, false).catch(() => {});
      const run = await this.store.claimRun(Number(job.id!.slice(JOB_PREFIX.length)), owner);
      if (run) return run;
      // Taken by a worker that claimed from the store, finished, or never committed: the next job.
    }
  }

  renew(id: number, owner: string): Promise<LeaseState> {
    return this.store.renew(id, owner);
  }

  finish(id: number, owner: string, outcome: RunEnd): Promise<boolean> {
    return this.store.finish(id, owner, outcome);
  }

  /** In the store: a cancelled run's job, if a worker takes it, finds its run not waiting and is dropped. */
  cancel(id: number): Promise<CancelAnswer> {
    return this.store.cancel(id);
  }

  counts(): Promise<QueueCounts> {
    return this.store.counts();
  }

  async close(): Promise<void> {
    if (this.worker) {
      await this.worker.bull.close(true).catch(() => {});
      this.worker.connection.disconnect();
    }
    await this.queue.close().catch(() => {});
    this.connection.disconnect();
  }

  /** The consumer side, made at the first claim: serve nodes that only start runs never make it. */
  private bullWorker(): Worker<NewRun> {
    if (!this.worker) {
      // getNextJob needs a connection of its own; BullMQ's blocking calls want maxRetriesPerRequest null.
      const connection = new this.libs.Redis(this.url, { maxRetriesPerRequest: null, enableOfflineQueue: false });
      connection.on('error', () => {});
      // No stalled checks: a claimed job is completed at once, and leases live in the store.
      const bull = new this.libs.bull.Worker<NewRun>(`smartcage-batch-${this.tenant}`, null, {
        connection,
        prefix: 'smartcage',
        autorun: false,
        skipStalledCheck: true,
        skipLockRenewal: true,
      });
      bull.on('error', () => {});
      this.worker = { bull, connection };
    }
    return this.worker.bull;
  }
}
