/**
 * The options of `serve` that say what each site may take of the process, as the site registry
 * (src/site/registry.ts) and its sandbox pool take them. The options themselves (flag, variable,
 * config-file key, default, bounds) are rows of src/site/server/options.ts.
 */
import type { RegistryOptions } from '../registry.js';
import type { ServeConfig } from './options.js';

export function tenancyOptions(cfg: ServeConfig): Partial<RegistryOptions> {
  return {
    pgPoolMax: cfg['pg-pool-max'],
    idleMs: cfg['site-idle-ms'],
    maxInFlight: cfg['tenant-max-inflight'],
    maxQueued: cfg['tenant-max-queued'],
    // Unset: the pool's own defaults.
    engine: {
      ...(cfg['sandbox-workers'] !== undefined ? { workers: cfg['sandbox-workers'] } : {}),
      pool: Object.fromEntries(
        (
          [
            ['isolateIdleMs', cfg['isolate-idle-ms']],
            ['workerHeapBudgetMB', cfg['isolate-heap-budget-mb']],
            ['workerMaxIsolates', cfg['isolates-max']],
          ] as const
        ).filter(([, v]) => v !== undefined),
      ),
    },
  };
}
