/** The process's store of API answers (src/site/api/response-cache.ts): version, TTL, LRU bounds. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CACHE_LIMITS, ResponseCache } from '../../../src/site/api/response-cache.js';

function cacheAt(limits: Partial<typeof DEFAULT_CACHE_LIMITS> = {}) {
  const clock = { ms: 0 };
  const cache = new ResponseCache({ ...DEFAULT_CACHE_LIMITS, ...limits }, () => clock.ms);
  return { cache, clock };
}

describe('ResponseCache', () => {
  it('serves an entry only at the version it was made at and before it expires', () => {
    const { cache, clock } = cacheAt();
    cache.set('s', 'k', { body: 'one', version: 3 }, 1000);
    expect(cache.get('k', 3)?.body).toBe('one');
    expect(cache.get('k', 4)).toBeUndefined();
    // The entry made at 3 is gone once a later version was seen: it is never served again.
    expect(cache.get('k', 3)).toBeUndefined();
    cache.set('s', 'k', { body: 'two', version: 4 }, 1000);
    clock.ms = 999;
    expect(cache.get('k', 4)?.body).toBe('two');
    clock.ms = 1000;
    expect(cache.get('k', 4)).toBeUndefined();
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 3, entries: 0, bytes: 0 });
  });

  it('does not keep an entry larger than the entry cap', () => {
    const { cache } = cacheAt({ maxEntryBytes: 100 });
    expect(cache.set('s', 'k', { body: 'x'.repeat(101), version: 0 }, 1000)).toBe(false);
    expect(cache.set('s', 'k', { body: 'é'.repeat(50), version: 0 }, 1000)).toBe(false);
    expect(cache.set('s', 'k', { body: 'x'.repeat(90), version: 0 }, 1000)).toBe(true);
    expect(cache.stats()).toMatchObject({ entries: 1, bytes: 91 });
  });

  it("evicts a site's least recently used entries past its own bounds, leaving other sites' alone", () => {
    const { cache } = cacheAt({ maxSiteEntries: 2 });
    cache.set('b', 'b1', { body: 'b', version: 0 }, 1000);
    cache.set('a', 'a1', { body: 'a', version: 0 }, 1000);
    cache.set('a', 'a2', { body: 'a', version: 0 }, 1000);
    expect(cache.get('a1', 0)).toBeDefined(); // a2 is now the least recently used of a
    cache.set('a', 'a3', { body: 'a', version: 0 }, 1000);
    expect(cache.get('a2', 0)).toBeUndefined();
    expect(cache.get('a1', 0)).toBeDefined();
    expect(cache.get('a3', 0)).toBeDefined();
    expect(cache.get('b1', 0)).toBeDefined();
    expect(cache.stats().evictions).toBe(1);
  });

  it('keeps the whole process within its bytes, the least recently used out first', () => {
    const { cache } = cacheAt({ maxBytes: 30 });
    for (const k of ['k1', 'k2', 'k3']) cache.set(k, k, { body: 'x'.repeat(8), version: 0 }, 1000);
    expect(cache.stats()).toMatchObject({ entries: 3, bytes: 30 });
    cache.get('k1', 0);
    cache.set('k4', 'k4', { body: 'x'.repeat(8), version: 0 }, 1000);
    expect(cache.get('k2', 0)).toBeUndefined();
    expect(cache.get('k1', 0)).toBeDefined();
    expect(cache.stats()).toMatchObject({ entries: 3, bytes: 30, evictions: 1 });
  });

  it('drops the entries of one site', () => {
    const { cache } = cacheAt();
    cache.set('a', 'a1', { body: 'a', version: 0 }, 1000);
    cache.set('b', 'b1', { body: 'b', version: 0 }, 1000);
    cache.dropSite('a');
    expect(cache.get('a1', 0)).toBeUndefined();
    expect(cache.get('b1', 0)).toBeDefined();
  });
});
