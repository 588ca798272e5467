/**
 * A local site opened for rendering: its settings, its database (migrated), the host adapters
 * over them and the engine options that point the engine at its templates and custom functions.
 * It uses only the package's public API, as an embedder's host would.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EgressGuard, type EngineOptions, type HostAdapters, type RenderIdentity } from '../index.js';
import { readSiteConfig } from './config.js';
import { openDatabase, SQLITE_FILE } from './db/database.js';
import { migrate } from './schema/index.js';
import { siteAdapters } from './adapters/index.js';
import type { SiteContext } from './site-context.js';
import { SiteEngines } from './engines.js';
import { SiteRequests } from './requests.js';
import { siteIdentity, type IdentityOptions } from './identity.js';
import { closeSiteQueue } from './batches/site-queue.js';

export interface Site extends SiteContext {
  readonly host: HostAdapters;
  /** Options for createEngine: this site's templates, custom functions, time zone, language and adapters. */
  engineOptions(): EngineOptions;
  /** The identity of a render on this site (tenant = site_key). */
  identity(opts?: IdentityOptions): RenderIdentity;
  close(): Promise<void>;
}

export { SQLITE_FILE };

export interface OpenOptions {
  /** Engine options over the site's own for the engines the site renders with (a fixed clock in tests...). */
  engine?: Partial<EngineOptions>;
  /**
   * Outbound HTTP of the site's plugins ({api}, the integrations): by default an EgressGuard with
   * its default policy, closed with the site; tests pass a guard with a test policy.
   */
  http?: NonNullable<HostAdapters['http']>;
}

export async function openSite(dir: string, opts: OpenOptions = {}): Promise<Site> {
  const config = readSiteConfig(dir);
  const db = await openDatabase({ url: config.database, sqlitePath: path.join(dir, SQLITE_FILE) });
  try {
    await migrate(db);
  } catch (e) {
    await db.close();
    throw e;
  }
  const engineOptions = (): EngineOptions => ({
    templates: folderLookup(path.join(dir, 'templates'), ''),
    functions: folderLookup(path.join(dir, 'functions'), '.tpl'),
    timezone: config.timezone,
    lang: config.lang,
    rootUrl: config.root_url,
    constants: { SITE_KEY: config.site_key, ROOT_URL: config.root_url },
    host,
    ...(config.default_modifiers ? { defaultModifiers: config.default_modifiers } : {}),
  });
  const closing: (() => void | Promise<void>)[] = [];
  const ctx: SiteContext = {
    dir, config, db, tenant: config.site_key, requests: new SiteRequests(), engines: new SiteEngines(engineOptions, opts.engine),
    atClose: (fn) => void closing.push(fn),
  };
  const guard = opts.http ? null : new EgressGuard();
  let host: HostAdapters;
  try {
    host = { ...siteAdapters(ctx), http: opts.http ?? guard! };
  } catch (e) {
    await db.close();
    throw e;
  }
  return {
    ...ctx,
    host,
    engineOptions,
    identity: (opts) => siteIdentity(config, opts),
    close: async () => {
      for (const fn of closing.splice(0)) await fn();
      ctx.engines.close();
      await closeSiteQueue(ctx);
      await guard?.close();
      await db.close();
    },
  };
}

/** Names a template may use: relative, no `..`, no hidden files, no backslashes. */
const SAFE_NAME = /^(?!.*(?:^|\/)\.)[A-Za-z0-9_\-./]{1,200}$/;

/** A SourceLookup over a folder: `name` + `suffix` inside it, or undefined. */
function folderLookup(folder: string, suffix: string): (name: string) => string | undefined {
  return (name) => {
    if (!SAFE_NAME.test(name) || name.startsWith('/')) return undefined;
    try {
      return readFileSync(path.join(folder, name + suffix), 'utf8');
    } catch {
      return undefined;
    }
  };
}
