/**
 * The answers of cached endpoints a server keeps (D236): one LRU over every site it serves (the
 * site registry makes it, src/site/registry.ts; a site opened alone has its own), bounded in
 * entries and bytes per site and for the whole cache (`serve --api-cache-*`, D240). An entry holds the
 * body of a 200 answer with the content version it was made at; an entry larger than the entry
 * cap is not kept. Keys are made by the caller (cached-answer.ts) and start with the site's key,
 * so one site's entries are never another's answer.
 */

export interface CacheLimits {
  /** Entries kept in the process, over all sites. */
  maxEntries: number;
  /** Bytes of bodies (and keys) kept in the process. */
  maxBytes: number;
  /** Entries of one site. */
  maxSiteEntries: number;
  /** Bytes of one site. */
  maxSiteBytes: number;
  /** An entry larger than this is not kept. */
  maxEntryBytes: number;
}

/** The bounds as an operator gives them (`serve --api-cache-*`, D240). */
export interface CacheSettings {
  /** maxEntries. */
  entries: number;
  /** maxBytes, in MiB. */
  mb: number;
  /** The percent of both the entries and the bytes one site may hold. */
  sitePercent: number;
  /** maxEntryBytes, in KiB. */
  entryKb: number;
}

export const DEFAULT_CACHE_SETTINGS: CacheSettings = { entries: 10_000, mb: 64, sitePercent: 10, entryKb: 1024 };

/** The limits of the settings; a site may hold at least one entry. */
export function cacheLimits(s: CacheSettings): CacheLimits {
  const maxBytes = s.mb * 1024 * 1024;
  return {
    maxEntries: s.entries,
    maxBytes,
    maxSiteEntries: Math.max(1, Math.floor((s.entries * s.sitePercent) / 100)),
    maxSiteBytes: Math.floor((maxBytes * s.sitePercent) / 100),
    maxEntryBytes: s.entryKb * 1024,
  };
}

export const DEFAULT_CACHE_LIMITS: CacheLimits = cacheLimits(DEFAULT_CACHE_SETTINGS);

export interface CachedAnswer {
  body: string;
  /** The site's content version when it was made. */
  version: number;
}

interface Entry extends CachedAnswer {
  site: string;
  /** When it stops being served (ms, the cache's clock). */
  expires: number;
  bytes: number;
}

export interface CacheStats {
  hits: number;
  misses: number;
  /** Entries pushed out by a bound (not those that expired or whose version moved on). */
  evictions: number;
  entries: number;
  bytes: number;
}

/** UTF-16 length is a bound on nothing; the UTF-8 length is what the process keeps, near enough. */
const sizeOf = (key: string, body: string) => Buffer.byteLength(body) + key.length;

export class ResponseCache {
  /** Map order is recency: a hit moves its entry to the end, eviction takes from the front. */
  private readonly entries = new Map<string, Entry>();
  private readonly sites = new Map<string, { entries: number; bytes: number }>();
  private readonly counts = { hits: 0, misses: 0, evictions: 0, bytes: 0 };

  constructor(
    readonly limits: CacheLimits = DEFAULT_CACHE_LIMITS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The answer kept under `key` when it is still fresh and made at `version`; counts a hit or a miss. */
  get(key: string, version: number): CachedAnswer | undefined {
    const e = this.entries.get(key);
    if (e && e.version === version && e.expires > this.now()) {
      this.entries.delete(key);
      this.entries.set(key, e);
      this.counts.hits++;
      return e;
    }
    if (e) this.remove(key, e);
    this.counts.misses++;
    return undefined;
  }

  /** Keeps `body` for `ttlMs`; false when it is larger than an entry may be. */
  set(site: string, key: string, answer: CachedAnswer, ttlMs: number): boolean {
    const bytes = sizeOf(key, answer.body);
    if (bytes > this.limits.maxEntryBytes || ttlMs <= 0) return false;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    const entry: Entry = { ...answer, site, expires: this.now() + ttlMs, bytes };
    this.entries.set(key, entry);
    this.counts.bytes += bytes;
    const s = this.sites.get(site) ?? { entries: 0, bytes: 0 };
    s.entries++;
    s.bytes += bytes;
    this.sites.set(site, s);
    this.bound(site, s);
    return true;
  }

  stats(): CacheStats {
    const { hits, misses, evictions, bytes } = this.counts;
    return { hits, misses, evictions, entries: this.entries.size, bytes };
  }

  /** Drops every entry of `site` (the site closed: its next answers are made again). */
  dropSite(site: string): void {
    for (const [k, e] of this.entries) if (e.site === site) this.remove(k, e);
  }

  /** The least recently used entries out until the site and the process are within bounds. */
  private bound(site: string, s: { entries: number; bytes: number }): void {
    const l = this.limits;
    if (s.entries > l.maxSiteEntries || s.bytes > l.maxSiteBytes)
      for (const [k, e] of this.entries) {
        if (s.entries <= l.maxSiteEntries && s.bytes <= l.maxSiteBytes) break;
        if (e.site !== site) continue;
        this.remove(k, e);
        this.counts.evictions++;
      }
    for (const [k, e] of this.entries) {
      if (this.entries.size <= l.maxEntries && this.counts.bytes <= l.maxBytes) break;
      this.remove(k, e);
      this.counts.evictions++;
    }
  }

  private remove(key: string, e: Entry): void {
    this.entries.delete(key);
    this.counts.bytes -= e.bytes;
    const s = this.sites.get(e.site)!;
    s.entries--;
    s.bytes -= e.bytes;
    if (s.entries === 0) this.sites.delete(e.site);
  }
}
