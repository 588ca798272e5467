/**
 * The log and metrics options of `smartcage serve` (docs/observability.md), read here and turned
 * into the server's observer (src/site/server/observer.ts), so serve.ts only passes them on.
 */
import { UsageError, stringOption, type OptionSpec, type Parsed } from '../args.js';
import type { SiteRegistry } from '../../site/registry.js';
import {
  LOG_FORMATS,
  LOG_LEVELS,
  createServerLogger,
  type LogFormat,
  type LogLevel,
} from '../../site/server/logging.js';
import { ServerMetrics } from '../../site/server/metrics.js';
import { ServerObserver } from '../../site/server/observer.js';

export { MetricsListenError } from '../../site/server/observer.js';
import { siteSources } from '../../site/server/sources.js';

export const OBSERVABILITY_OPTIONS: OptionSpec = {
  'log-level': { type: 'string' },
  'log-format': { type: 'string' },
  'metrics-port': { type: 'string' },
  'metrics-site-labels': { type: 'string' },
};

export const OBSERVABILITY_USAGE = [
  '  --log-level L  with --site/--sites: fatal, error, warn, info (default), debug, trace or silent.',
  '                 One JSON line per request on stderr (request id, site, endpoint, status, ms,',
  "                 render CPU, error code, memory class) and the templates' {logger} lines",
  '  --log-format F json, or pretty (the default when stderr is a terminal)',
  '  --metrics-port N  Prometheus metrics at http://127.0.0.1:N/metrics instead of /metrics on',
  '                 the serving port (0 picks a free one)',
  '  --metrics-site-labels N  per-site render counters for the N sites with the most renders,',
  '                 the rest as site="other" (default 0: no metric names a site)',
];

export interface ObservabilitySettings {
  logLevel: LogLevel;
  logFormat?: LogFormat;
  metricsPort: 'serving' | number;
  siteLabels: number;
}

export function observabilitySettings(values: Parsed['values']): ObservabilitySettings {
  const level = stringOption(values, 'log-level') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level))
    throw new UsageError(`--log-level needs one of ${LOG_LEVELS.join(', ')}`);
  const format = stringOption(values, 'log-format');
  if (format !== undefined && !(LOG_FORMATS as readonly string[]).includes(format))
    throw new UsageError('--log-format needs json or pretty');
  const portFlag = stringOption(values, 'metrics-port');
  const port = portFlag === undefined ? 'serving' : Number(portFlag);
  if (port !== 'serving' && (!Number.isInteger(port) || port < 0 || port > 65535))
    throw new UsageError('--metrics-port needs an integer from 0 to 65535');
  const labelsFlag = stringOption(values, 'metrics-site-labels') ?? '0';
  const siteLabels = Number(labelsFlag);
  if (!/^\d+$/.test(labelsFlag) || siteLabels > 1000)
    throw new UsageError('--metrics-site-labels needs an integer from 0 to 1000');
  return { logLevel: level as LogLevel, logFormat: format as LogFormat | undefined, metricsPort: port, siteLabels };
}

export function siteServerObserver(settings: ObservabilitySettings, registry: SiteRegistry): ServerObserver {
  return new ServerObserver({
    logger: createServerLogger({ level: settings.logLevel, format: settings.logFormat }),
    metrics: new ServerMetrics({ sources: siteSources(registry), siteLabels: settings.siteLabels }),
    metricsPort: settings.metricsPort,
    isSite: (tenant) => registry.has(tenant),
  });
}
