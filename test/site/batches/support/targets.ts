/**
 * Where a batch queue of a test lives, and how a worker opens it: in the test, or in a process of
 * its own (support/doomed-worker.ts). No vitest here, so a plain Node process can load it.
 */
import { openDatabase, type SiteDatabase } from '../../../../src/site/db/database.js';
import { migrate } from '../../../../src/site/schema/index.js';
import { StoreQueue } from '../../../../src/site/batches/store-queue.js';
import { openBullQueue } from '../../../../src/site/batches/bullmq-queue.js';
import type { BatchQueue } from '../../../../src/site/batches/queue.js';

export interface QueueTarget {
  kind: 'sqlite' | 'postgres' | 'bullmq';
  /** SQLite file, PostgreSQL URL or Redis URL. */
  where: string;
  tenant: string;
  /** bullmq: the SQLite file of the site store that keeps its runs. */
  store?: string;
}

/** Opens the queue of `target` (a new worker's view of it). */
export async function openTarget(
  target: QueueTarget,
  leaseMs: number,
): Promise<{ queue: BatchQueue; db?: SiteDatabase }> {
  const db = await openDatabase(
    target.kind === 'postgres'
      ? { url: target.where, sqlitePath: '' }
      : { sqlitePath: target.kind === 'bullmq' ? target.store! : target.where },
  );
  await migrate(db);
  if (target.kind === 'bullmq') return { queue: await openBullQueue(target.where, db, target.tenant, leaseMs), db };
  return { queue: new StoreQueue(db, target.tenant, leaseMs), db };
}
