/**
 * The batch queue of an open site, made on first use: the site store's, or BullMQ's when
 * site.json `batch_queue` names Redis. The site closes it (open-site.ts). Also what the runs of
 * this process are rendering, by request id, so a run that queues another passes its depth on.
 */
import type { SiteContext } from '../site-context.js';
import type { SiteDatabase } from '../db/database.js';
import { DEFAULT_LEASE_MS, type BatchQueue } from './queue.js';
import { StoreQueue } from './store-queue.js';
import { openBullQueue } from './bullmq-queue.js';
import { batchQueueUrl } from './queue-url.js';
import { detached } from '../db/render-statements.js';

// Keyed by the open site's database: a Site is a copy of its SiteContext with more fields, and both
// must find the same queue.
const queues = new WeakMap<SiteDatabase, Promise<BatchQueue>>();
const lineages = new WeakMap<SiteDatabase, Map<string, number>>();

export interface QueueOptions {
  leaseMs?: number;
}

/** The site's queue; `opts` count only for the call that makes it. */
export function siteQueue(ctx: SiteContext, opts: QueueOptions = {}): Promise<BatchQueue> {
  let q = queues.get(ctx.db);
  if (!q) {
    const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    const url = batchQueueUrl(ctx.dir, ctx.config);
    // Made on a render's first {batch}: its connections and workers must not carry that render's signal (D183).
    q = detached(() =>
      url
        ? openBullQueue(url, ctx.db, ctx.tenant, leaseMs)
        : Promise.resolve(new StoreQueue(ctx.db, ctx.tenant, leaseMs)),
    );
    queues.set(ctx.db, q);
  }
  return q;
}

/** The site's queue if it was opened already (metrics read it; they must not open one). */
export function openedSiteQueue(ctx: SiteContext): Promise<BatchQueue> | undefined {
  return queues.get(ctx.db);
}

export async function closeSiteQueue(ctx: SiteContext): Promise<void> {
  const q = queues.get(ctx.db);
  queues.delete(ctx.db);
  if (q) await (await q).close();
}

/** Batch renders in flight in this process: request id -> the run's depth. */
export function lineage(ctx: SiteContext): Map<string, number> {
  let m = lineages.get(ctx.db);
  if (!m) lineages.set(ctx.db, (m = new Map()));
  return m;
}
