/**
 * HostAdapters.siteSync of a local site: the host's sites are the site folders next to this one
 * (sync/host-sites.ts), and a sync copies rows and files between two of them (sync/run-sync.ts;
 * docs/site.md, "Site sync").
 */
import type { HostAdapters, SiteSyncAdapter } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import { childSiteKeys, findHostSite, withSiteDb } from '../sync/host-sites.js';
import { runSync } from '../sync/run-sync.js';

export function syncAdapters(ctx: SiteContext): Partial<HostAdapters> {
  const siteSync: SiteSyncAdapter = {
    async site(siteKey) {
      const found = findHostSite(ctx, siteKey);
      if (!found) return null;
      const childSites = await withSiteDb(ctx, found, (db) => childSiteKeys(db, found.config.site_key));
      return {
        siteKey: found.config.site_key,
        childSiteKeys: childSites,
        parentSiteKey: found.config.parent_site ?? null,
      };
    },
    async sync(run) {
      return runSync(ctx, run);
    },
  };
  return { siteSync };
}
