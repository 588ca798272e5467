/**
 * The server's observer (src/site/server/observer.ts) as the log and metrics options of
 * `smartcage serve` ask for it (docs/observability.md; the options are rows of
 * src/site/server/options.ts), so serve.ts only passes them on. With sites, the metrics read the
 * sites' engines, pools and queues; the form server alone has the access log and Node's own metrics.
 */
import type { SiteRegistry } from '../../site/registry.js';
import { createServerLogger } from '../../site/server/logging.js';
import { ServerMetrics, type MetricsSources } from '../../site/server/metrics.js';
import { ServerObserver } from '../../site/server/observer.js';
import type { ServeConfig } from '../../site/server/options.js';
import { siteSources } from '../../site/server/sources.js';

export { MetricsListenError } from '../../site/server/observer.js';

const NO_SITES: MetricsSources = {
  *engines() {},
  *databasePools() {},
  batchQueues: () => Promise.resolve([]),
};

export function serverObserver(cfg: ServeConfig, registry: SiteRegistry | null): ServerObserver {
  return new ServerObserver({
    logger: createServerLogger({ level: cfg['log-level'], format: cfg['log-format'] }),
    metrics: new ServerMetrics({
      sources: registry ? siteSources(registry) : NO_SITES,
      siteLabels: cfg['metrics-site-labels'],
    }),
    metricsPort: cfg['metrics-port'] ?? 'serving',
    isSite: registry ? (tenant) => registry.has(tenant) : () => false,
  });
}
