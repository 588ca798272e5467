/**
 * ServerMetrics (src/site/server/metrics.ts) with sources of the test's own: the gauges read at
 * the scrape, counters fed from totals that go back when a worker is replaced, the top-N site
 * labels, and two servers of one process that keep their counts apart.
 */
import { describe, expect, it } from 'vitest';
import type { EngineStats, RenderEvent } from '../../../src/index.js';
import { ServerMetrics, type MetricsSources, type PoolUse } from '../../../src/site/server/metrics.js';
import { parsePrometheusText, sampleValue } from './prometheus-text.js';

function sources(state: {
  engines: EngineStats[];
  pools: PoolUse[];
  batches: { queued: number; running: number }[];
}): MetricsSources {
  return { engines: () => state.engines, databasePools: () => state.pools, batchQueues: async () => state.batches };
}

const stats = (s: Partial<EngineStats> = {}): EngineStats => ({
  workers: 1,
  isolates: 0,
  evicted: 0,
  queued: 0,
  running: 0,
  crashes: 0,
  ...s,
});
const render = (tenant: string, errorCode?: RenderEvent['errorCode']): RenderEvent => ({
  tenant,
  template: 't',
  requestId: 'r',
  context: 'web',
  memoryMB: 128,
  cpuMs: 2,
  durationMs: 5,
  errorCode,
});
const scrape = async (m: ServerMetrics) => parsePrometheusText(await m.text());

describe('ServerMetrics', () => {
  it('reads engines, database pools and batch queues at the scrape, summed', async () => {
    const state = {
      engines: [stats({ isolates: 3, queued: 2, running: 1 }), stats({ isolates: 1 })],
      pools: [
        { total: 4, idle: 1, waiting: 2 },
        { total: 2, idle: 2, waiting: 0 },
      ],
      batches: [{ queued: 5, running: 1 }],
    };
    const m = new ServerMetrics({ sources: sources(state) });
    let f = await scrape(m);
    expect(sampleValue(f, 'smartcage_isolates_warm')).toBe(4);
    expect(sampleValue(f, 'smartcage_sandbox_workers')).toBe(2);
    expect(sampleValue(f, 'smartcage_render_queue_depth')).toBe(2);
    expect(sampleValue(f, 'smartcage_renders_running')).toBe(1);
    expect([
      sampleValue(f, 'smartcage_db_pool_clients', { state: 'total' }),
      sampleValue(f, 'smartcage_db_pool_clients', { state: 'idle' }),
      sampleValue(f, 'smartcage_db_pool_clients', { state: 'waiting' }),
    ]).toEqual([6, 3, 2]);
    expect([
      sampleValue(f, 'smartcage_batch_runs', { state: 'queued' }),
      sampleValue(f, 'smartcage_batch_runs', { state: 'running' }),
    ]).toEqual([5, 1]);
    state.engines = [stats({ isolates: 0 })];
    f = await scrape(m);
    expect(sampleValue(f, 'smartcage_isolates_warm')).toBe(0);
  });

  it('evictions and crashes only grow: a worker replaced (its count back to 0) adds its new count', async () => {
    const state = { engines: [stats({ evicted: 5, crashes: 1 })], pools: [], batches: [] };
    const m = new ServerMetrics({ sources: sources(state) });
    expect(sampleValue(await scrape(m), 'smartcage_isolates_evicted_total')).toBe(5);
    state.engines = [stats({ evicted: 7, crashes: 1 })];
    expect(sampleValue(await scrape(m), 'smartcage_isolates_evicted_total')).toBe(7);
    state.engines = [stats({ evicted: 2, crashes: 2 })];
    const f = await scrape(m);
    expect(sampleValue(f, 'smartcage_isolates_evicted_total')).toBe(9);
    expect(sampleValue(f, 'smartcage_sandbox_worker_crashes_total')).toBe(2);
  });

  it('--metrics-site-labels 2: the two sites with the most renders by name, the rest as other; none without it', async () => {
    const m = new ServerMetrics({ sources: sources({ engines: [], pools: [], batches: [] }), siteLabels: 2 });
    for (const [site, n] of [
      ['a', 1],
      ['b', 5],
      ['c', 3],
      ['d', 2],
    ] as const)
      for (let i = 0; i < n; i++) m.render(render(site, i === 0 ? 'E_RUNTIME' : undefined));
    let f = await scrape(m);
    expect(f.get('smartcage_site_renders_total')!.samples.map((s) => [s.labels.site, s.value])).toEqual([
      ['b', 5],
      ['c', 3],
      ['other', 3],
    ]);
    expect(sampleValue(f, 'smartcage_site_render_errors_total', { site: 'other' })).toBe(2);
    expect(sampleValue(f, 'smartcage_site_render_seconds_total', { site: 'b' })).toBeCloseTo(0.025);
    expect(sampleValue(f, 'smartcage_renders_total', { result: 'ok', code: '' })).toBe(7);
    expect(sampleValue(f, 'smartcage_renders_total', { result: 'error', code: 'E_RUNTIME' })).toBe(4);
    // d overtakes c: c's series goes, its renders join other.
    for (let i = 0; i < 4; i++) m.render(render('d'));
    f = await scrape(m);
    expect(f.get('smartcage_site_renders_total')!.samples.map((s) => [s.labels.site, s.value])).toEqual([
      ['d', 6],
      ['b', 5],
      ['other', 4],
    ]);

    const plain = new ServerMetrics({ sources: sources({ engines: [], pools: [], batches: [] }) });
    plain.render(render('a'));
    const text = await plain.text();
    expect(text).not.toContain('smartcage_site_');
    expect(text).not.toMatch(/site="/);
  });

  it('two servers in one process keep their own counts (no global registry)', async () => {
    const empty = sources({ engines: [], pools: [], batches: [] });
    const one = new ServerMetrics({ sources: empty });
    const two = new ServerMetrics({ sources: empty });
    one.render(render('a'));
    one.request('GET', 200, 0.01);
    one.request('BREW', 418, 0.01);
    expect(sampleValue(await scrape(one), 'smartcage_renders_total', { result: 'ok', code: '' })).toBe(1);
    expect(sampleValue(await scrape(one), 'smartcage_http_requests_total', { method: 'other', status: '418' })).toBe(1);
    expect(sampleValue(await scrape(two), 'smartcage_renders_total', { result: 'ok', code: '' })).toBeUndefined();
  });
});
