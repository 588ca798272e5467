/**
 * Site synchronisation (HostAdapters.siteSync, {site_sync}): the sites of the host a tenant's
 * site may name, and a sync between two of them. The plugin decides who may sync what (the
 * render's context, parent and child sites, the six-hour interval against the render's clock);
 * the adapter answers which sites the host has and runs a sync atomically: a failed sync leaves
 * the target as it was.
 */

/** A site of the same host as the asking tenant's. */
export interface HostSite {
  siteKey: string;
  /** The site keys its child sites list (its child_site records). */
  childSiteKeys: readonly string[];
  /** The site it names as its parent, or null: a child is family only when it names its parent too. */
  parentSiteKey: string | null;
}

/**
 * What a sync copies from `from` into `to`: 1 the app design, 2 everything (the app design and
 * the contents), 4 the app design without the tag definitions. What each covers is the host's to
 * define and document (the local site: docs/site.md, "Site sync").
 */
export type SyncType = 1 | 2 | 4;

export interface SiteSyncRun {
  from: string;
  to: string;
  type: SyncType;
  /** The render's clock (Unix seconds): when the run is recorded. */
  now: number;
  /**
   * The run is refused (nothing changes) when a completed sync into `to` is recorded later than
   * this (Unix seconds). The adapter checks it in the same transaction that records the run, so
   * two syncs at once cannot both pass.
   */
  notAfter: number;
}

export type SiteSyncResult = { ok: true; runId: number } | { ok: false; lastSync: number };

export interface SiteSyncAdapter {
  /**
   * The site `siteKey` of the tenant's host (the tenant's own site included), or null when the
   * host has none by that key; never a site of another host.
   */
  site(siteKey: string): Promise<HostSite | null>;
  /** Runs one sync of two sites `site` answered for the tenant; rejects when it fails, changing nothing. */
  sync(run: SiteSyncRun): Promise<SiteSyncResult>;
}
