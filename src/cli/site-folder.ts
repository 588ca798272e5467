/**
 * Opening the local site a command names (`--site DIR`, `site put/get DIR`; `serve` has its
 * registry, src/site/registry.ts):
 * whatever keeps a site from opening (no or a broken site.json, a database that cannot be
 * reached) is one SiteOpenError with one line to show, never a stack.
 */
import { existsSync, statSync } from 'node:fs';
import { openSite, type OpenOptions, type Site } from '../site/open-site.js';
import { SiteConfigError } from '../site/config.js';

export class SiteOpenError extends Error {}

export async function openSiteFolder(dir: string, opts: OpenOptions = {}): Promise<Site> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new SiteOpenError(`${dir}: no such folder`);
  try {
    return await openSite(dir, opts);
  } catch (e) {
    if (e instanceof SiteConfigError) throw new SiteOpenError(e.message);
    throw new SiteOpenError(`${dir}: the site's database could not be opened (${(e as Error).message.split('\n')[0]})`);
  }
}
