/**
 * The Prometheus metrics of `smartcage serve` (prom-client), in a registry of the server's own,
 * not prom-client's global one: two servers in one process (tests, an embedder) keep their counts
 * apart, and a cluster's primary can aggregate its children's registries (AggregatorRegistry:
 * each child hands this `registry` to `AggregatorRegistry.setRegistries`).
 *
 * Label cardinality is bounded: the labels are our error codes, HTTP status codes, methods and a
 * result. No site key is a label unless the operator asks (`siteLabels` > 0); then only the N
 * sites with the most renders get their own series of the per-site metrics, the rest are `other`.
 * By default the metrics say nothing of any tenant.
 *
 * What the engine and the sites hold (isolates, queues, database pools, batch runs) is read when
 * Prometheus scrapes, from the sources the server passes: nothing polls in between.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { EngineStats, RenderEvent } from '../../index.js';
import type { CacheStats } from '../api/response-cache.js';

/** Connections of one database pool (pg's Pool: totalCount, idleCount, waitingCount). */
export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
}

/** Where the gauges are read from at a scrape. */
export interface MetricsSources {
  /** Every engine the server renders with (one per site and depth today; one for all sites later). */
  engines(): Iterable<EngineStats>;
  /** The database pools the sites have open (SQLite sites have none). */
  databasePools(): Iterable<PoolUse>;
  /** Batch runs queued and running, of each site whose queue is open (read from its store: may take a query). */
  batchQueues(): Promise<Iterable<{ queued: number; running: number }>>;
  /** The process's API cache (site/api/response-cache.ts); absent: no such metrics. */
  apiCache?(): CacheStats;
}

export interface ServerMetricsOptions {
  sources: MetricsSources;
  /** Sites with their own `site` label on the per-site metrics: the N with the most renders (default 0: none). */
  siteLabels?: number;
  /** Metric name prefix (default `smartcage_`). */
  prefix?: string;
}

const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** The label of a site outside the top N. */
const OTHER_SITES = 'other';
/** A scrape waits this long for the batch queues' counts, then reports without them. */
const QUEUE_COUNT_TIMEOUT_MS = 1000;

interface SiteTotals {
  renders: number;
  errors: number;
  seconds: number;
}

export class ServerMetrics {
  readonly registry = new Registry();
  readonly contentType = this.registry.contentType;
  private readonly renders: Counter<'result' | 'code'>;
  private readonly renderSeconds: Histogram<'result'>;
  private readonly renderCpu: Counter;
  private readonly requests: Counter<'method' | 'status'>;
  private readonly requestSeconds: Histogram<'method'>;
  private readonly perSite = new Map<string, SiteTotals>();
  /** Counters of the engines that can go back (a new sandbox worker starts at 0): the last sum seen. */
  private readonly seen = { evicted: 0, crashes: 0, cacheHits: 0, cacheMisses: 0, cacheEvictions: 0 };

  constructor(private readonly opts: ServerMetricsOptions) {
    const p = opts.prefix ?? 'smartcage_';
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.renders = new Counter({
      name: `${p}renders_total`,
      help: 'Renders that ended, by result (ok, error) and error code (empty when ok).',
      labelNames: ['result', 'code'],
      registers,
    });
    this.renderSeconds = new Histogram({
      name: `${p}render_duration_seconds`,
      help: 'Wall time of a render: compile, waiting for its turn, host calls and the template.',
      labelNames: ['result'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.renderCpu = new Counter({
      name: `${p}render_cpu_seconds_total`,
      help: 'CPU time templates used in their isolates.',
      registers,
    });
    this.requests = new Counter({
      name: `${p}http_requests_total`,
      help: 'HTTP requests answered, by method and status code.',
      labelNames: ['method', 'status'],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: `${p}http_request_duration_seconds`,
      help: 'Time from a request to the end of its answer.',
      labelNames: ['method'],
      buckets: DURATION_BUCKETS,
      registers,
    });

    const engines = () => [...opts.sources.engines()];
    const sum = (f: (s: EngineStats) => number) => engines().reduce((n, s) => n + f(s), 0);
    new Gauge({
      name: `${p}isolates_warm`,
      help: 'Tenant isolates the sandbox workers hold.',
      registers,
      collect() {
        this.set(sum((s) => s.isolates));
      },
    });
    new Gauge({
      name: `${p}sandbox_workers`,
      help: 'Sandbox worker processes alive.',
      registers,
      collect() {
        this.set(sum((s) => s.workers));
      },
    });
    new Gauge({
      name: `${p}render_queue_depth`,
      help: "Renders waiting: behind their site's other render, for memory admission or for a worker.",
      registers,
      collect() {
        this.set(sum((s) => s.queued));
      },
    });
    new Gauge({
      name: `${p}renders_running`,
      help: 'Renders a sandbox worker is running.',
      registers,
      collect() {
        this.set(sum((s) => s.running));
      },
    });
    const seen = this.seen;
    new Counter({
      name: `${p}isolates_evicted_total`,
      help: 'Isolates disposed by the idle, retain and memory-budget rules.',
      registers,
      collect() {
        seen.evicted = grow(
          this,
          seen.evicted,
          sum((s) => s.evicted),
        );
      },
    });
    new Counter({
      name: `${p}sandbox_worker_crashes_total`,
      help: 'Sandbox worker processes that died.',
      registers,
      collect() {
        seen.crashes = grow(
          this,
          seen.crashes,
          sum((s) => s.crashes),
        );
      },
    });
    new Gauge({
      name: `${p}db_pool_clients`,
      help: 'PostgreSQL pool clients of the open sites: total (open), idle, and waiting (requests waiting for a client).',
      labelNames: ['state'],
      registers,
      collect() {
        const t = { total: 0, idle: 0, waiting: 0 };
        for (const u of opts.sources.databasePools())
          for (const k of ['total', 'idle', 'waiting'] as const) t[k] += u[k];
        for (const k of ['total', 'idle', 'waiting'] as const) this.set({ state: k }, t[k]);
      },
    });
    new Gauge({
      name: `${p}batch_runs`,
      help: "Batch runs of the open sites' queues, by state (queued, running).",
      labelNames: ['state'],
      registers,
      async collect() {
        const t = { queued: 0, running: 0 };
        const counts = await Promise.race([
          opts.sources.batchQueues(),
          new Promise<null>((r) => setTimeout(() => r(null), QUEUE_COUNT_TIMEOUT_MS).unref()),
        ]);
        if (counts === null) return;
        for (const c of counts) {
          t.queued += c.queued;
          t.running += c.running;
        }
        this.set({ state: 'queued' }, t.queued);
        this.set({ state: 'running' }, t.running);
      },
    });

    const apiCache = opts.sources.apiCache;
    if (apiCache) {
      const counter = (
        name: string,
        help: string,
        key: 'cacheHits' | 'cacheMisses' | 'cacheEvictions',
        pick: (c: CacheStats) => number,
      ) =>
        new Counter({
          name: `${p}api_cache_${name}_total`,
          help,
          registers,
          collect() {
            seen[key] = grow(this, seen[key], pick(apiCache()));
          },
        });
      counter('hits', 'Requests to endpoints with a cache answered from it.', 'cacheHits', (c) => c.hits);
      counter('misses', 'Requests to endpoints with a cache that made their answer.', 'cacheMisses', (c) => c.misses);
      counter(
        'evictions',
        'Kept answers pushed out by the bounds in entries or bytes.',
        'cacheEvictions',
        (c) => c.evictions,
      );
      new Gauge({
        name: `${p}api_cache_entries`,
        help: 'Answers the API cache keeps.',
        registers,
        collect() {
          this.set(apiCache().entries);
        },
      });
      new Gauge({
        name: `${p}api_cache_bytes`,
        help: 'Bytes of the answers the API cache keeps.',
        registers,
        collect() {
          this.set(apiCache().bytes);
        },
      });
    }

    if ((opts.siteLabels ?? 0) > 0) {
      const fill = (counter: Counter<'site'>, pick: (t: SiteTotals) => number) => this.fillSites(counter, pick);
      const site = (name: string, help: string, pick: (t: SiteTotals) => number) =>
        new Counter({
          name: `${p}site_${name}`,
          help,
          labelNames: ['site'],
          registers,
          collect() {
            fill(this, pick);
          },
        });
      site(
        'renders_total',
        `Renders of the ${opts.siteLabels} sites with the most renders; the rest as site="${OTHER_SITES}".`,
        (t) => t.renders,
      );
      site('render_errors_total', 'Renders that failed, per site as site_renders_total.', (t) => t.errors);
      site('render_seconds_total', 'Wall time of renders, per site as site_renders_total.', (t) => t.seconds);
    }
  }

  /** A render of one of the server's sites ended (its `asyncEnd` event). */
  render(e: RenderEvent): void {
    const result = e.errorCode ? 'error' : 'ok';
    this.renders.inc({ result, code: e.errorCode ?? '' });
    if (e.durationMs !== undefined) this.renderSeconds.observe({ result }, e.durationMs / 1000);
    if (e.cpuMs !== undefined) this.renderCpu.inc(e.cpuMs / 1000);
    if ((this.opts.siteLabels ?? 0) > 0) {
      let t = this.perSite.get(e.tenant);
      if (!t) this.perSite.set(e.tenant, (t = { renders: 0, errors: 0, seconds: 0 }));
      t.renders++;
      if (e.errorCode) t.errors++;
      t.seconds += (e.durationMs ?? 0) / 1000;
    }
  }

  /** A request was answered (or its connection closed). */
  request(method: string, status: number, seconds: number): void {
    const m = KNOWN_METHODS.has(method) ? method : 'other';
    this.requests.inc({ method: m, status: String(status) });
    this.requestSeconds.observe({ method: m }, seconds);
  }

  /** Under `serve --processes N`: every child's metrics, summed by the primary (processes.ts). */
  private whole: (() => Promise<string>) | null = null;

  /** Scrapes answer with `whole()` from now on: the server's metrics, not this process's share. */
  useCluster(whole: () => Promise<string>): void {
    this.whole = whole;
  }

  /** The text Prometheus scrapes. */
  text(): Promise<string> {
    return this.whole ? this.whole() : this.registry.metrics();
  }

  /**
   * A per-site counter at a scrape: the N sites with the most renders with their own totals since
   * the server started, the rest summed as `other`. A site that leaves the top N loses its series
   * (its counts go to `other`, which then jumps up; one that enters makes `other` go down).
   */
  private fillSites(counter: Counter<'site'>, pick: (t: SiteTotals) => number): void {
    const top = [...this.perSite].sort((a, b) => b[1].renders - a[1].renders).slice(0, this.opts.siteLabels);
    counter.reset();
    let rest = 0;
    for (const [, t] of this.perSite) rest += pick(t);
    for (const [site, t] of top) {
      counter.inc({ site }, pick(t));
      rest -= pick(t);
    }
    counter.inc({ site: OTHER_SITES }, Math.max(0, rest));
  }
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * A counter fed from a total that may go back (a sandbox worker replaced starts its count at 0):
 * it grows by the increase, or by the whole new total after a drop. Returns the total to remember.
 */
function grow(counter: Counter, last: number, now: number): number {
  const by = now >= last ? now - last : now;
  if (by > 0) counter.inc(by);
  return now;
}
