/**
 * The options of `serve` that say what each site may take of the process, as the site registry
 * (src/site/registry.ts) and its sandbox pool take them. The options themselves (flag, variable,
 * config-file key, default, bounds) are rows of src/site/server/options.ts. Reads the
 * `--isolate-groups` file unless given it: a ServeConfigError when it is wrong.
 */
import type { RegistryOptions } from '../registry.js';
import type { ServeConfig } from './options.js';
import { cacheLimits } from '../api/response-cache.js';
import { IsolateGroups } from './isolate-groups.js';
import type { RouteKey } from './affinity.js';

/**
 * `supervised`: this process is a child of `--processes N`, which its primary replaces when it
 * dies. Its isolates then run in it unless `--sandbox-workers` says otherwise: a crash in the
 * sandbox costs the requests in flight either way, and in-process takes less CPU per request
 * (docs/decisions.md D200). A lone server process keeps the engines' worker, which the pool restarts.
 */
export function tenancyOptions(
  cfg: ServeConfig,
  supervised = false,
  groups = isolateGroupsOf(cfg),
): Partial<RegistryOptions> {
  const workers = cfg['sandbox-workers'] ?? (supervised ? 0 : undefined);
  return {
    pgPoolMax: cfg['pg-pool-max'],
    idleMs: cfg['site-idle-ms'],
    maxInFlight: cfg['tenant-max-inflight'],
    maxQueued: cfg['tenant-max-queued'],
    apiCache: cacheLimits({
      entries: cfg['api-cache-entries'],
      mb: cfg['api-cache-mb'],
      sitePercent: cfg['api-cache-site-percent'],
      entryKb: cfg['api-cache-entry-kb'],
    }),
    // Unset: the pool's own defaults.
    engine: {
      ...(workers !== undefined ? { workers } : {}),
      pool: Object.fromEntries(
        (
          [
            ['isolateIdleMs', cfg['isolate-idle-ms']],
            ['workerHeapBudgetMB', cfg['isolate-heap-budget-mb']],
            ['workerMaxIsolates', cfg['isolates-max']],
            ['tenantsPerIsolate', cfg['tenants-per-isolate']],
          ] as const
        ).filter(([, v]) => v !== undefined),
      ),
      ...(groups ? { isolateGroup: (identity) => groups.groupOf(identity.tenant) } : {}),
    },
  };
}

/**
 * What `--processes N` routes sites by: their group's key where a group's sites share isolates
 * (`--tenants-per-isolate` above 1), so that they share one child's (D343); else each its own key.
 */
export function routeKeyOf(groups: IsolateGroups | undefined): RouteKey | undefined {
  return groups && groups.perIsolate > 1 ? groups.routeKey : undefined;
}

/** The `--isolate-groups` file, read now (a ServeConfigError when it is wrong), or undefined without one. */
export function isolateGroupsOf(cfg: ServeConfig): IsolateGroups | undefined {
  const file = cfg['isolate-groups'];
  // Unset is the pool's default, 1 (options.ts): nothing is shared.
  return file === undefined ? undefined : new IsolateGroups(file, cfg['tenants-per-isolate'] ?? 1);
}
