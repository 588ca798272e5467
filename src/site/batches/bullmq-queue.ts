/**
 * The batch queue on Redis through BullMQ, for hosts whose workers run on several machines. One
 * BullMQ queue per tenant (`smartcage-batch-<tenant>`); jobs are fetched by hand
 * (Worker.getNextJob) so `smartcage batch run` drives them as it drives the store's queue. The
 * lease is BullMQ's job lock; a job whose lock lapsed is moved back to wait by the stalled check
 * (every half lease), and failed once it stalled MAX_ATTEMPTS - 1 times. Run ids come from a Redis
 * counter per tenant; a dedupe key maps to the id it was first given (one Lua step), and the job
 * id is that run id, so a second add of the same run is a no-op in BullMQ itself, even after a
 * crash between the two steps. Finished jobs are kept DEDUPE_SECONDS for the same reason.
 * bullmq and ioredis are optional peer dependencies: only a site whose site.json names a Redis URL
 * loads them. The Redis connection is made here and handed to BullMQ, which cannot load ioredis
 * itself from an ES module.
 */
import type { Job, Queue, Worker } from 'bullmq';
import { DEDUPE_SECONDS, MAX_ATTEMPTS, type BatchQueue, type NewRun, type QueueCounts, type QueuedRun } from './queue.js';

type Payload = NewRun & { queuedAt: number };

export async function openBullQueue(url: string, tenant: string, leaseMs: number): Promise<BatchQueue> {
  let bull: typeof import('bullmq');
  let Redis: typeof import('ioredis').Redis;
  try {
    [bull, { Redis }] = await Promise.all([import('bullmq'), import('ioredis')]);
  } catch {
    throw new Error('this site keeps its batch queue in Redis (site.json batch_queue): install the optional dependencies bullmq and ioredis');
  }
  // BullMQ's blocking calls need ioredis to retry forever rather than fail a command.
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  connection.on('error', () => {});
  const name = `smartcage-batch-${tenant}`;
  const queue = new bull.Queue(name, { connection, prefix: 'smartcage' });
  const worker = new bull.Worker(name, null, {
    connection, prefix: 'smartcage', autorun: false, lockDuration: leaseMs,
    stalledInterval: Math.max(100, Math.floor(leaseMs / 2)), maxStalledCount: MAX_ATTEMPTS - 1,
  });
  // Its errors (a lost connection) surface in the next call; unhandled they would end the process.
  worker.on('error', () => {});
  queue.on('error', () => {});
  (await queue.getBackend().client).defineCommand('smartcageBatchId', { numberOfKeys: 2, lua: RUN_ID_LUA });
  await worker.startStalledCheckTimer();
  return new BullQueue(bull, queue, worker, connection, tenant, leaseMs);
}

/** BullMQ takes no integers as job ids (they are its own counter's). */
const JOB_PREFIX = 'run-';
const jobId = (id: number) => `${JOB_PREFIX}${id}`;

/** A new run id, or the id a dedupe key (KEYS[2], '' for none) was first given: one atomic step. */
const RUN_ID_LUA = `
if KEYS[2] ~= '' then
  local first = redis.call('GET', KEYS[2])
  if first then return tonumber(first) end
end
local id = redis.call('INCR', KEYS[1])
if KEYS[2] ~= '' then redis.call('SET', KEYS[2], id, 'EX', ARGV[1]) end
return id`;

class BullQueue implements BatchQueue {
  readonly backend = 'bullmq';

  constructor(
    private readonly bull: typeof import('bullmq'),
    private readonly queue: Queue<Payload>,
    private readonly worker: Worker<Payload>,
    private readonly connection: { quit(): Promise<unknown> },
    private readonly tenant: string,
    private readonly leaseMs: number,
  ) {}

  private key(what: string): string {
    return `smartcage:batch:${this.tenant}:${what}`;
  }

  async enqueue(run: NewRun): Promise<number> {
    const redis = await this.queue.getBackend().client;
    const id = Number(await redis.runCommand('smartcageBatchId', [this.key('id'), run.dedupeKey === null ? '' : this.key(`dedupe:${run.dedupeKey}`), DEDUPE_SECONDS]));
    await this.queue.add(run.slug, { ...run, queuedAt: Math.floor(Date.now() / 1000) }, {
      jobId: jobId(id),
      removeOnComplete: { age: DEDUPE_SECONDS },
      removeOnFail: { age: DEDUPE_SECONDS },
    });
    return id;
  }

  async claim(owner: string): Promise<QueuedRun | null> {
    for (;;) {
      const job = (await this.worker.getNextJob(owner, { block: false })) as Job<Payload> | undefined;
      if (!job) return null;
      // Stalled past maxStalledCount, BullMQ hands the job out once more marked to be failed.
      if (job.deferredFailure) {
        await job.moveToFailed(new Error(job.deferredFailure), owner, false);
        continue;
      }
      return { ...job.data, id: Number(job.id!.slice(JOB_PREFIX.length)), attempt: job.attemptsStarted };
    }
  }

  async renew(id: number, owner: string): Promise<boolean> {
    const job = await this.bull.Job.fromId<Payload>(this.queue, jobId(id));
    if (!job) return false;
    try {
      return (await job.extendLock(owner, this.leaseMs)) > 0;
    } catch {
      return false;
    }
  }

  async finish(id: number, owner: string, outcome: 'done' | 'failed', error?: string): Promise<boolean> {
    const job = await this.bull.Job.fromId<Payload>(this.queue, jobId(id));
    if (!job) return false;
    try {
      // BullMQ refuses both when the lock is missing or another token's: the lease was lost.
      if (outcome === 'done') await job.moveToCompleted('done', owner, false);
      // Jobs are added with one attempt, so BullMQ does not retry a failed run: as on the store, it is history.
      else await job.moveToFailed(new Error(error ?? 'failed'), owner, false);
      return true;
    } catch {
      return false;
    }
  }

  async counts(): Promise<QueueCounts> {
    const c = await this.queue.getJobCounts('waiting', 'delayed', 'prioritized', 'active');
    return { queued: (c.waiting ?? 0) + (c.delayed ?? 0) + (c.prioritized ?? 0), running: c.active ?? 0 };
  }

  async close(): Promise<void> {
    await this.worker.close(true);
    await this.queue.close();
    // Given to BullMQ as an instance, the connection is ours to close.
    await this.connection.quit();
  }
}
