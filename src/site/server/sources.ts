/**
 * Where the metrics of `smartcage serve` read what the sites hold (metrics.ts `MetricsSources`):
 * the one set of engines every site renders with, the PostgreSQL pools (one per URL, shared by
 * the sites that name it), the batch queues of the sites open now and the registry's API cache.
 */
import type { SiteRegistry } from '../registry.js';
import { openedSiteQueue } from '../batches/site-queue.js';
import type { MetricsSources } from './metrics.js';

export function siteSources(registry: SiteRegistry): MetricsSources {
  return {
    *engines() {
      yield* registry.engines.stats();
    },
    *databasePools() {
      yield* registry.poolUses();
    },
    async batchQueues() {
      const open = registry
        .openedSites()
        .map((s) => openedSiteQueue(s))
        .filter((q) => q !== undefined);
      const counts = await Promise.allSettled(open.map(async (q) => (await q).counts()));
      return counts.filter((c) => c.status === 'fulfilled').map((c) => c.value);
    },
    apiCache: () => registry.apiCache.stats(),
  };
}
