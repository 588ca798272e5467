/**
 * The sites one `serve` process answers for, and what each costs while it is not used: its
 * settings and nothing else (docs/decisions.md D125-D129).
 *
 * - One set of engines for every site (engines.ts): a render finds its site by its tenant.
 * - A site's handle (its database, batch queue, stores and adapters: openSite) is opened at its
 *   first request and closed once it has been idle for `idleMs`. Sites that name the same
 *   PostgreSQL URL share one pool (DatabasePools). A handle that cannot be opened makes that
 *   site's requests fail (`site_unavailable`, 503) and is tried again after `retryOpenMs`; the
 *   other sites are not touched.
 * - Fairness: at most `maxInFlight` requests of one site run at once, at most `maxQueued` wait
 *   behind them; past that a request is refused at once (`tenant_busy`, 429). Renders of one
 *   tenant run one at a time in the sandbox anyway (PoolOptions.perTenantConcurrency), so a
 *   flooding site waits on itself and the others' renders go on in their own isolates.
 * - Reload: site.json is looked at (its mtime) at most every `reloadCheckMs` when the site is
 *   used; a change that reads well replaces the settings, and the open handle is closed once its
 *   requests are done (the next request opens it with the new ones). A broken site.json keeps the
 *   last good one and is logged once. functions/ and templates/ are looked at by each render already
 *   (an endpoint's function by its stat, D212).
 *   `rescan()` (SIGHUP) does the same for every site at once and adds new site folders.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { EngineOptions } from '../index.js';
import { readSiteConfig, SiteConfigError, type SiteConfig } from './config.js';
import { DatabasePools } from './db/database.js';
import { SiteEngines } from './engines.js';
import { openSiteWith, type OpenOptions, type Site } from './open-site.js';
import { checkEndpointCaches } from './api/cache-rule.js';
import { DEFAULT_CACHE_LIMITS, ResponseCache, type CacheLimits } from './api/response-cache.js';
import { siteSources } from './folder-lookup.js';

export interface RegistryOptions {
  /** A site unused this long has its database, queue and stores closed, ms (default 120,000). */
  idleMs: number;
  /** Requests of one site running at once (default 4). */
  maxInFlight: number;
  /** Requests of one site waiting behind those (default 32); one more is refused with 429. */
  maxQueued: number;
  /** Connections of the PostgreSQL pool that the sites naming one URL share, per process (default 10). */
  pgPoolMax: number;
  /** site.json's mtime is looked at most this often per site, when the site is used, ms (default 1,000). */
  reloadCheckMs: number;
  /** A site that could not be opened is tried again after this long, ms (default 5,000). */
  retryOpenMs: number;
  /** Options of the shared engines (isolate bounds through `pool`, a fixed clock in tests). */
  engine: Partial<EngineOptions>;
  /** What open does besides the database (a test egress policy). */
  open: Pick<OpenOptions, 'http'>;
  /** Bounds of the API answers the sites keep, all of them together and each (D236, D240). */
  apiCache: CacheLimits;
  /** One line per event worth an operator's eye (a broken site.json, a site that failed to open). */
  log: (line: string) => void;
}

export const DEFAULT_REGISTRY: Omit<RegistryOptions, 'engine' | 'open' | 'log'> = {
  idleMs: 120_000,
  maxInFlight: 4,
  maxQueued: 32,
  pgPoolMax: 10,
  reloadCheckMs: 1000,
  retryOpenMs: 5000,
  apiCache: DEFAULT_CACHE_LIMITS,
};

/** Why a request of a site was not run. */
type Refusal = { status: 429 | 503; code: 'tenant_busy' | 'site_unavailable'; message: string; retryAfterS: number };

export type Used<T> = { ok: true; value: T } | ({ ok: false } & Refusal);

/** Something wrong with the sites folder or a site.json at start-up: one line. */
export class SiteFolderError extends Error {}

class Handle {
  users = 0;
  retired = false;
  /** The site once it opened (metrics read what the open sites hold without waiting). */
  ready: Site | null = null;
  constructor(readonly site: Promise<Site>) {
    site.then(
      (s) => (this.ready = s),
      () => {},
    );
  }
}

class Entry {
  handle: Handle | null = null;
  failed: { at: number; message: string } | null = null;
  inFlight = 0;
  readonly waiting: (() => void)[] = [];
  lastUsed = 0;
  checkedAt = 0;
  /** The mtime of the site.json last logged as broken: each broken version is logged once. */
  brokenMtime = -1;
  /** Handles retired while in use, closed when their last request ends. */
  readonly draining = new Set<Handle>();

  constructor(
    readonly key: string,
    readonly dir: string,
    public config: SiteConfig,
    public mtimeMs: number,
  ) {}
}

export class SiteRegistry {
  readonly engines: SiteEngines;
  /** The answers of every site's cached endpoints, within one set of bounds (D236). */
  readonly apiCache: ResponseCache;
  private readonly pools: DatabasePools;
  private readonly entries = new Map<string, Entry>();
  private readonly opts: RegistryOptions;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  /** Every site folder right under `dir` (one with a site.json), each site.json read and checked; nothing is opened. */
  static load(dir: string, opts: Partial<RegistryOptions> = {}): SiteRegistry {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new SiteFolderError(`${dir}: no such folder`);
    const folders = siteFolders(dir);
    if (folders.length === 0)
      throw new SiteFolderError(
        `${dir}: no site folder in it (a folder with a site.json; make one with \`smartcage site init ${path.join(dir, 'NAME')}\`)`,
      );
    const registry = new SiteRegistry(dir, opts);
    try {
      for (const folder of folders) {
        const problem = registry.add(folder);
        if (problem) throw new SiteFolderError(problem);
      }
    } catch (e) {
      void registry.close();
      throw e;
    }
    return registry;
  }

  /** One site folder (`serve --site`): its site.json read and checked; nothing is opened. */
  static folder(dir: string, opts: Partial<RegistryOptions> = {}): SiteRegistry {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new SiteFolderError(`${dir}: no such folder`);
    const registry = new SiteRegistry(null, opts);
    const problem = registry.add(dir);
    if (problem) {
      void registry.close();
      throw new SiteFolderError(problem);
    }
    return registry;
  }

  private constructor(
    private readonly root: string | null,
    opts: Partial<RegistryOptions>,
  ) {
    this.opts = { ...DEFAULT_REGISTRY, engine: {}, open: {}, log: () => {}, ...opts };
    this.engines = new SiteEngines(this.opts.engine);
    this.pools = new DatabasePools(this.opts.pgPoolMax);
    this.apiCache = new ResponseCache(this.opts.apiCache);
    this.timer = setInterval(() => this.sweep(), Math.max(50, Math.min(this.opts.idleMs / 4, 5000)));
    this.timer.unref();
  }

  /** Reads `folder`'s site.json and serves it; a problem as one line (nothing added). */
  private add(folder: string): string | null {
    let config: SiteConfig;
    let mtimeMs: number;
    try {
      // The mtime first: a change made while the file is read shows at the next check.
      mtimeMs = mtimeOf(folder);
      config = readSiteConfig(folder);
    } catch (e) {
      return e instanceof SiteConfigError ? e.message : `${folder}: ${(e as Error).message}`;
    }
    const twin = this.entries.get(config.site_key);
    if (twin)
      return `${twin.dir} and ${folder} have the same site key "${config.site_key}" (each site is its own tenant)`;
    this.entries.set(config.site_key, new Entry(config.site_key, folder, config, mtimeMs));
    return null;
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  dirOf(key: string): string {
    const e = this.entries.get(key);
    if (!e) throw new Error(`no site "${key}" here`);
    return e.dir;
  }

  /** Open PostgreSQL pools, one per URL in use. */
  get pgPools(): number {
    return this.pools.pgPools;
  }

  /** The sites open now (metrics: their batch queues). */
  openedSites(): Site[] {
    const out: Site[] = [];
    for (const e of this.entries.values()) if (e.handle?.ready) out.push(e.handle.ready);
    return out;
  }

  /** Use of each PostgreSQL pool open now (one per URL, shared by the sites that name it). */
  poolUses(): ReturnType<DatabasePools['uses']> {
    return this.pools.uses();
  }

  /** Open handles (for tests and the benchmark). */
  get openSites(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.handle) n++;
    return n;
  }

  /**
   * Runs `fn` with site `key` open, within the site's share of the process: refused at once
   * (429) when the site has `maxInFlight` requests running and `maxQueued` waiting, or (503) when
   * the site cannot be opened.
   */
  async use<T>(key: string, fn: (site: Site) => Promise<T>): Promise<Used<T>> {
    const e = this.entries.get(key);
    if (!e) throw new Error(`no site "${key}" here`);
    if (e.inFlight >= this.opts.maxInFlight) {
      if (e.waiting.length >= this.opts.maxQueued) {
        return {
          ok: false,
          status: 429,
          code: 'tenant_busy',
          message: `site ${key} has ${e.inFlight} requests running and ${e.waiting.length} waiting; try again shortly`,
          retryAfterS: 1,
        };
      }
      // Woken with the slot of a request that ended (it is handed over, not counted again).
      await new Promise<void>((r) => e.waiting.push(r));
    } else e.inFlight++;
    try {
      this.checkConfig(e);
      let handle: Handle;
      let site: Site;
      try {
        handle = this.handleOf(e);
        site = await handle.site;
      } catch (err) {
        return {
          ok: false,
          status: 503,
          code: 'site_unavailable',
          message: `site ${key} cannot be opened now (${oneLine(err)})`,
          retryAfterS: Math.ceil(this.opts.retryOpenMs / 1000),
        };
      }
      handle.users++;
      try {
        return { ok: true, value: await fn(site) };
      } finally {
        handle.users--;
        if (handle.retired && handle.users === 0) this.closeHandle(e, handle);
      }
    } finally {
      e.lastUsed = Date.now();
      const next = e.waiting.shift();
      if (next) next();
      else e.inFlight--;
    }
  }

  /** Opens site `key` now (`serve --site`, which must fail at start when its database does). */
  async open(key: string): Promise<Site> {
    const e = this.entries.get(key);
    if (!e) throw new Error(`no site "${key}" here`);
    return this.handleOf(e).site;
  }

  private handleOf(e: Entry): Handle {
    if (e.handle) return e.handle;
    const now = Date.now();
    if (e.failed && now - e.failed.at < this.opts.retryOpenMs) throw new Error(e.failed.message);
    const opening = openSiteWith(e.dir, e.config, {
      ...this.opts.open,
      engines: this.engines,
      apiCache: this.apiCache,
      openDatabase: (t) => this.pools.open(t),
    });
    const handle = new Handle(opening);
    e.handle = handle;
    e.lastUsed = now;
    opening.then(
      () => {
        e.failed = null;
      },
      (err: unknown) => {
        if (e.handle === handle) e.handle = null;
        e.failed = { at: Date.now(), message: oneLine(err) };
        this.opts.log(`site ${e.key}: cannot be opened: ${e.failed.message}`);
      },
    );
    return handle;
  }

  /** Rereads site.json when its mtime moved (at most every reloadCheckMs, or now with `force`). */
  private checkConfig(e: Entry, force = false): void {
    const now = Date.now();
    if (!force && now - e.checkedAt < this.opts.reloadCheckMs) return;
    e.checkedAt = now;
    let mtimeMs: number;
    try {
      mtimeMs = statSync(path.join(e.dir, 'site.json')).mtimeMs;
    } catch {
      return this.broken(e, -2, 'site.json is gone');
    }
    if (mtimeMs === e.mtimeMs) return;
    let config: SiteConfig;
    try {
      config = readSiteConfig(e.dir);
      // A cache the functions cannot have is refused here too, so the last good site.json stays.
      checkEndpointCaches(config, siteSources(e.dir));
    } catch (err) {
      return this.broken(e, mtimeMs, err instanceof SiteConfigError ? err.message : oneLine(err));
    }
    if (config.site_key !== e.key)
      return this.broken(
        e,
        mtimeMs,
        `its site_key changed to "${config.site_key}"; a site key changes only with a restart`,
      );
    e.config = config;
    e.mtimeMs = mtimeMs;
    e.brokenMtime = -1;
    e.failed = null;
    this.opts.log(`site ${e.key}: site.json reloaded`);
    const h = e.handle;
    if (h) {
      e.handle = null;
      h.retired = true;
      if (h.users === 0) this.closeHandle(e, h);
      else e.draining.add(h);
    }
  }

  private broken(e: Entry, mtimeMs: number, why: string): void {
    if (e.brokenMtime === mtimeMs) return;
    e.brokenMtime = mtimeMs;
    this.opts.log(`site ${e.key}: ${why}; keeping the last good site.json`);
  }

  private closeHandle(e: Entry, h: Handle): void {
    e.draining.delete(h);
    if (e.handle === h) e.handle = null;
    h.site
      .then(
        (s) => s.close(),
        () => {},
      )
      .catch((err: unknown) => this.opts.log(`site ${e.key}: closing failed: ${oneLine(err)}`));
  }

  /** Closes the handles of sites idle for idleMs. */
  sweep(now = Date.now()): number {
    let n = 0;
    for (const e of this.entries.values()) {
      const h = e.handle;
      if (h && h.users === 0 && e.inFlight === 0 && now - e.lastUsed >= this.opts.idleMs) {
        this.closeHandle(e, h);
        n++;
      }
    }
    return n;
  }

  /**
   * SIGHUP: every site.json read again now (a broken one keeps the last good, logged), and site
   * folders new under the sites folder added. A folder removed stays served until a restart.
   */
  rescan(): { added: string[] } {
    for (const e of this.entries.values()) this.checkConfig(e, true);
    const added: string[] = [];
    if (this.root === null) return { added };
    const known = new Set([...this.entries.values()].map((e) => e.dir));
    for (const folder of siteFolders(this.root)) {
      if (known.has(folder)) continue;
      const problem = this.add(folder);
      if (problem) this.opts.log(`sites: ${problem}; not added`);
      else {
        const key = [...this.entries.values()].find((e) => e.dir === folder)!.key;
        added.push(key);
        this.opts.log(`site ${key}: added (${folder})`);
      }
    }
    return { added };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    const sites: Promise<Site>[] = [];
    for (const e of this.entries.values()) {
      if (e.handle) sites.push(e.handle.site);
      for (const h of e.draining) sites.push(h.site);
      e.handle = null;
      e.draining.clear();
    }
    await Promise.all(
      sites.map((p) =>
        p.then(
          (s) => s.close(),
          () => {},
        ),
      ),
    );
    await this.engines.close();
  }
}

/** Every site folder right under `dir` (a folder with a site.json), sorted. */
export function siteFolders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, 'site.json')))
    .map((d) => path.join(dir, d.name))
    .sort();
}

function mtimeOf(folder: string): number {
  try {
    return statSync(path.join(folder, 'site.json')).mtimeMs;
  } catch {
    return -1;
  }
}

function oneLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!;
}
