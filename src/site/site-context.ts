/** What a family's adapters and sample data are given: the site's folder, settings and database. */
import type { SiteConfig } from './config.js';
import type { SiteDatabase } from './db/database.js';
import type { ContentVersion } from './db/content-version.js';
import type { SiteEngines } from './engines.js';
import type { SiteRequests } from './requests.js';
import type { ResponseCache } from './api/response-cache.js';

export interface SiteContext {
  readonly dir: string;
  readonly config: SiteConfig;
  /** Its writes of content move `contentVersion` on (db/content-version.ts). */
  readonly db: SiteDatabase;
  /** The version of the site's content in its store, which the API cache keeps answers under. */
  readonly contentVersion: ContentVersion;
  /** The tenant of every row and file of this site: its site_key. */
  readonly tenant: string;
  /** The requests in flight: their cookie jars, and how internal API requests nest (requests.ts). */
  readonly requests: SiteRequests;
  /** The engines the site runs its own custom functions with, one per depth of internal requests (engines.ts). */
  readonly engines: SiteEngines;
  /** The answers of its cached endpoints: the server's cache, shared by its sites (api/response-cache.ts). */
  readonly apiCache: ResponseCache;
  /** Runs `fn` when the site closes (pooled connections an adapter keeps open...), before the database closes. */
  atClose(fn: () => void | Promise<void>): void;
}
