/**
 * Opening the local site a command names (`--site DIR`, `site put/get DIR`; `serve` has its
 * registry, src/site/registry.ts):
 * whatever keeps a site from opening (no or a broken site.json, a database that cannot be
 * reached) is one SiteOpenError with one line to show, never a stack.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { openSite, type OpenOptions, type Site } from '../site/open-site.js';
import { SiteConfigError } from '../site/config.js';
import { SiteEngines } from '../site/engines.js';
import { siteFolders } from '../site/registry.js';
import { firstLine } from './caught.js';

export class SiteOpenError extends Error {}

export async function openSiteFolder(dir: string, opts: OpenOptions = {}): Promise<Site> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new SiteOpenError(`${dir}: no such folder`);
  try {
    return await openSite(dir, opts);
  } catch (e) {
    if (e instanceof SiteConfigError) throw new SiteOpenError(e.message);
    throw new SiteOpenError(`${dir}: the site's database could not be opened (${firstLine(e)})`);
  }
}

/**
 * Every site folder right under `dir`, opened on one set of engines (`batch run --sites`: one
 * sandbox worker for all of them); two with one site key are refused. `close` closes the sites,
 * then the engines.
 */
export async function openSiteFolders(dir: string): Promise<{ sites: Site[]; close(): Promise<void> }> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new SiteOpenError(`${dir}: no such folder`);
  const folders = siteFolders(dir);
  if (folders.length === 0)
    throw new SiteOpenError(
      `${dir}: no site folder in it (a folder with a site.json; make one with \`smartcage site init ${path.join(dir, 'NAME')}\`)`,
    );
  const engines = new SiteEngines();
  const sites: Site[] = [];
  const close = async () => {
    await Promise.all(sites.map((s) => s.close()));
    await engines.close();
  };
  try {
    for (const folder of folders) {
      const site = await openSiteFolder(folder, { engines });
      sites.push(site);
      const twin = sites.find((s) => s !== site && s.tenant === site.tenant);
      if (twin)
        throw new SiteOpenError(
          `${twin.dir} and ${site.dir} have the same site key "${site.tenant}" (each site is its own tenant)`,
        );
    }
  } catch (e) {
    await close();
    throw e;
  }
  return { sites, close };
}
