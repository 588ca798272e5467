/**
 * Where the metrics of `smartcage serve` read what the sites hold (metrics.ts `MetricsSources`):
 * their engines, their PostgreSQL pools and their batch queues, only those already open. Sites
 * on one database each count their own pool.
 */
import type { Site } from '../open-site.js';
import { openedSiteQueue } from '../batches/site-queue.js';
import type { MetricsSources, PoolUse } from './metrics.js';

export function siteSources(sites: () => Iterable<Site>): MetricsSources {
  return {
    *engines() {
      for (const s of sites()) yield* s.engines.stats();
    },
    *databasePools() {
      for (const s of sites()) {
        const use: PoolUse | undefined = s.db.poolUse?.();
        if (use) yield use;
      }
    },
    async batchQueues() {
      const open = [...sites()].map((s) => openedSiteQueue(s)).filter((q) => q !== undefined);
      const counts = await Promise.allSettled(open.map(async (q) => (await q).counts()));
      return counts.filter((c) => c.status === 'fulfilled').map((c) => c.value);
    },
  };
}
