/** The API cache's series in /metrics (D236): counters and gauges of the process, no site label. */
import { describe, expect, it } from 'vitest';
import { ServerMetrics } from '../../../src/site/server/metrics.js';
import { DEFAULT_CACHE_LIMITS, ResponseCache } from '../../../src/site/api/response-cache.js';
import { parsePrometheusText, sampleValue } from './prometheus-text.js';

describe('ServerMetrics of the API cache', () => {
  it('counts hits, misses and evictions and shows entries and bytes, per process only', async () => {
    const cache = new ResponseCache({ ...DEFAULT_CACHE_LIMITS, maxSiteEntries: 1 });
    const m = new ServerMetrics({
      sources: {
        *engines() {},
        *databasePools() {},
        batchQueues: async () => [],
        apiCache: () => cache.stats(),
      },
      siteLabels: 3,
    });
    cache.get('s1\0k1', 0);
    cache.set('s1', 's1\0k1', { body: 'aaaa', version: 0 }, 1000);
    cache.get('s1\0k1', 0);
    cache.set('s1', 's1\0k2', { body: 'bb', version: 0 }, 1000);
    const text = await m.text();
    const f = parsePrometheusText(text);
    expect(sampleValue(f, 'smartcage_api_cache_hits_total')).toBe(1);
    expect(sampleValue(f, 'smartcage_api_cache_misses_total')).toBe(1);
    expect(sampleValue(f, 'smartcage_api_cache_evictions_total')).toBe(1);
    expect(sampleValue(f, 'smartcage_api_cache_entries')).toBe(1);
    expect(sampleValue(f, 'smartcage_api_cache_bytes')).toBe(2 + 's1\0k2'.length);
    expect(text.split('\n').filter((l) => l.startsWith('smartcage_api_cache') && l.includes('{'))).toEqual([]);
    cache.get('s1\0k2', 0);
    expect(sampleValue(parsePrometheusText(await m.text()), 'smartcage_api_cache_hits_total')).toBe(2);
  });
});
