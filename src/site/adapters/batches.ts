/**
 * The batches of a local site (HostAdapters.batches): site.json `batches` (by slug or `id`) and
 * the modules' default batches, queued in the site's queue (batches/site-queue.ts). The queue's
 * bounds are kept here, where every start passes: at most MAX_PENDING_RUNS waiting runs, and a
 * run queued by a batch run is one level deeper than it, at most MAX_BATCH_DEPTH (CPU-07). The
 * same batch with the same data queued twice by one render is one run (its id both times).
 */
import { createHash } from 'node:crypto';
import { BridgeError, type BatchStart, type HostAdapters } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import { lineage, siteQueue } from '../batches/site-queue.js';
import { moduleBatch } from '../batches/module-batches.js';
import { phpJson } from '../batches/php-json.js';
import { MAX_BATCH_DEPTH, MAX_PENDING_RUNS, QueueUnavailable } from '../batches/queue.js';

/** The slug a start names, or null when the site has no such batch. */
function resolve(ctx: SiteContext, start: BatchStart): string | null {
  const b = start.batch;
  if ('id' in b) return ctx.config.batches.find((x) => x.id === b.id)?.slug ?? null;
  if (start.module !== null) return moduleBatch(start.module, b.slug) === undefined ? null : b.slug;
  return ctx.config.batches.some((x) => x.slug === b.slug) ? b.slug : null;
}

export function batchesAdapters(ctx: SiteContext): Partial<HostAdapters> {
  return {
    batches: {
      async enqueue(start) {
        const slug = resolve(ctx, start);
        if (slug === null) return null;
        const module = 'id' in start.batch ? null : start.module;
        const depth = (lineage(ctx).get(start.requestId) ?? -1) + 1;
        if (depth > MAX_BATCH_DEPTH)
          throw new BridgeError(
            'E_QUOTA',
            `a batch run may queue batches only ${MAX_BATCH_DEPTH} levels deep (this run is a batch queued by batches ${MAX_BATCH_DEPTH} times)`,
          );
        const queue = await siteQueue(ctx);
        const { queued, running } = await queue.counts();
        if (queued + running >= MAX_PENDING_RUNS)
          throw new BridgeError(
            'E_QUOTA',
            `the site has ${MAX_PENDING_RUNS} batch runs waiting; no more are queued until they run`,
          );
        const data = phpJson(start.data);
        // An idempotency key names the run across requests (a client's retry); else one render's
        // same batch and data are one run. Hashed: the key is the template's text, of any characters.
        const dedupeKey =
          start.idempotencyKey === undefined
            ? createHash('sha256')
                .update(JSON.stringify([start.requestId, module, slug, data]))
                .digest('hex')
            : `key:${createHash('sha256').update(start.idempotencyKey).digest('hex')}`;
        try {
          return await queue.enqueue({
            slug,
            module,
            data,
            origin: start.origin,
            requestId: start.requestId,
            depth,
            dedupeKey,
          });
        } catch (e) {
          if (e instanceof QueueUnavailable) throw new BridgeError('E_HOST_UNAVAILABLE', e.message);
          throw e;
        }
      },
    },
  };
}
