/**
 * A local site opened for rendering: its settings, its database (migrated), the host adapters
 * over them and the engine options that point the engine at its templates and custom functions.
 * It uses only the package's public API, as an embedder's host would.
 */
import path from 'node:path';
import {
  EgressGuard,
  type EngineOptions,
  type HostAdapters,
  type RenderIdentity,
  type TenantSettings,
} from '../index.js';
import { readSiteConfig, type SiteConfig } from './config.js';
import { openDatabase, SQLITE_FILE } from './db/database.js';
import { migrate } from './schema/index.js';
import { versionedDatabase } from './db/content-version.js';
import { checkEndpointCaches } from './api/cache-rule.js';
import { ResponseCache } from './api/response-cache.js';
import { siteAdapters } from './adapters/index.js';
import { siteStorageReady } from './adapters/basic.js';
import type { SiteContext } from './site-context.js';
import { SiteEngines } from './engines.js';
import { SiteRequests } from './requests.js';
import { siteIdentity, type IdentityOptions } from './identity.js';
import { closeSiteQueue } from './batches/site-queue.js';
import { siteSources } from './folder-lookup.js';

export interface Site extends SiteContext {
  readonly host: HostAdapters;
  /** Options for createEngine: this site's templates, custom functions, time zone, language and adapters. */
  engineOptions(): EngineOptions;
  /** The identity of a render on this site (tenant = site_key). */
  identity(opts?: IdentityOptions): RenderIdentity;
  close(): Promise<void>;
}

export interface OpenOptions {
  /**
   * Engine options over the site's own for the engines the site renders with (a fixed clock in
   * tests...); only when the site makes its own engines (no `engines`).
   */
  engine?: Partial<EngineOptions>;
  /**
   * Engines shared with other sites (`serve --sites`): the site attaches to them while it is open
   * and leaves them open when it closes. Absent: engines of the site's own, closed with it.
   */
  engines?: SiteEngines;
  /** The cache of API answers shared with other sites (the registry's). Absent: one of the site's own. */
  apiCache?: ResponseCache;
  /**
   * Outbound HTTP of the site's plugins ({api}, the integrations): by default an EgressGuard with
   * its default policy, closed with the site; tests pass a guard with a test policy.
   */
  http?: NonNullable<HostAdapters['http']>;
  /** Opens the site's database (default: openDatabase); the site closes what it gives (DatabasePools: its share of a pool). */
  openDatabase?: typeof openDatabase;
}

export async function openSite(dir: string, opts: OpenOptions = {}): Promise<Site> {
  const config = readSiteConfig(dir);
  return openSiteWith(dir, config, opts);
}

/** openSite with site.json read already (the registry of `serve --sites` reads it itself). */
export async function openSiteWith(dir: string, config: SiteConfig, opts: OpenOptions = {}): Promise<Site> {
  const store = await (opts.openDatabase ?? openDatabase)({
    url: config.database,
    sqlitePath: path.join(dir, SQLITE_FILE),
  });
  const closeDb = () => store.close();
  const { templates, functions } = siteSources(dir);
  try {
    checkEndpointCaches(config, { templates, functions });
    await migrate(store);
  } catch (e) {
    await closeDb();
    throw e;
  }
  // The version moves only where an endpoint keeps answers, the one reader of it (D257).
  const cached = config.endpoints.some((e) => e.cache !== undefined);
  const { db, version: contentVersion } = versionedDatabase(store, config.site_key, cached);
  const settings = (): TenantSettings => ({
    timezone: config.timezone,
    lang: config.lang,
    rootUrl: config.root_url,
    constants: { SITE_KEY: config.site_key, ROOT_URL: config.root_url },
    host,
    ...(config.default_modifiers ? { defaultModifiers: config.default_modifiers } : {}),
  });
  const engineOptions = (): EngineOptions => ({
    templates: (name) => templates(name),
    functions: (name) => functions(name),
    ...settings(),
  });
  const engines = opts.engines ?? new SiteEngines(opts.engine);
  const closing: (() => void | Promise<void>)[] = [];
  const ctx: SiteContext = {
    dir,
    config,
    db,
    contentVersion,
    tenant: config.site_key,
    requests: new SiteRequests(),
    engines,
    apiCache: opts.apiCache ?? new ResponseCache(),
    atClose: (fn) => void closing.push(fn),
  };
  const guard = opts.http ? null : new EgressGuard();
  let host: HostAdapters;
  let detach: () => void;
  try {
    host = { ...siteAdapters(ctx), http: opts.http ?? guard! };
    const own = settings();
    await siteStorageReady(ctx);
    detach = engines.attach(config.site_key, { template: templates, customFunction: functions, settings: own });
  } catch (e) {
    await guard?.close();
    await closeDb();
    throw e;
  }
  return {
    ...ctx,
    host,
    engineOptions,
    identity: (opts) => siteIdentity(config, opts),
    close: async () => {
      detach();
      // A site opened again (site.json changed) makes its answers again.
      ctx.apiCache.dropSite(config.site_key);
      for (const fn of closing.splice(0)) await fn();
      if (!opts.engines) await engines.close();
      // The engines close no tenant's host: the browser of {generate_pdf} is the site's.
      await host.browser?.close?.().catch(() => {});
      await closeSiteQueue(ctx);
      await guard?.close();
      await closeDb();
    },
  };
}
