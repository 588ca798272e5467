/**
 * The sites of a local site's host: the site folders next to it (what `serve --sites DIR` serves
 * as one host), found by the site key in their site.json. A site elsewhere is never found, so a
 * sync cannot reach another host's site.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { readSiteConfig, type SiteConfig } from '../config.js';
import { openDatabase, SQLITE_FILE, type SiteDatabase } from '../db/database.js';
import { migrate } from '../schema/index.js';
import type { SiteContext } from '../site-context.js';

/** Folders of one host looked at, at most (a folder past it is not found). */
export const MAX_HOST_FOLDERS = 1000;

export interface HostFolder {
  dir: string;
  config: SiteConfig;
}

/** The site `siteKey` of ctx's host: ctx's own, or a folder next to it; null when there is none. */
export function findHostSite(ctx: SiteContext, siteKey: string): HostFolder | null {
  if (siteKey === ctx.tenant) return { dir: ctx.dir, config: ctx.config };
  const parent = path.dirname(path.resolve(ctx.dir));
  const own = path.resolve(ctx.dir);
  let seen = 0;
  for (const entry of readdirSync(parent, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = path.join(parent, entry.name);
    if (dir === own || !existsSync(path.join(dir, 'site.json'))) continue;
    if (++seen > MAX_HOST_FOLDERS) break;
    let config: SiteConfig;
    try {
      config = readSiteConfig(dir);
    } catch {
      continue; // a broken site.json is not a site anyone can sync with
    }
    if (config.site_key === siteKey) return { dir, config };
  }
  return null;
}

/** Runs `fn` with the database of `site`: ctx's own, or one opened (and migrated) for the call. */
export async function withSiteDb<T>(
  ctx: SiteContext,
  site: HostFolder,
  fn: (db: SiteDatabase) => Promise<T>,
): Promise<T> {
  if (site.dir === ctx.dir) return fn(ctx.db);
  const db = await openDatabase({ url: site.config.database, sqlitePath: path.join(site.dir, SQLITE_FILE) });
  try {
    await migrate(db);
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** The keys of the child sites `tenant` lists in `db`. */
export async function childSiteKeys(db: SiteDatabase, tenant: string): Promise<string[]> {
  const rows = await db.all<{ site_key: string }>(
    'SELECT site_key FROM child_sites WHERE tenant = ? ORDER BY site_key',
    [tenant],
  );
  return rows.map((r) => r.site_key);
}
