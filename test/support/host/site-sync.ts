/**
 * The test host's site sync adapter for plugin examples and the plugin's rule tests: an
 * embedder's SiteSyncAdapter over a fixed table of sites that records each sync it runs. Sites:
 * `default` (the test renders' tenant) with the child site `child`; `child`; `other-parent`,
 * whose child site is `default`; `stranger`, related to none of them; and two half relations:
 * `unclaimed` (default lists it, it names no parent) and `adopter` (names default, not listed).
 * Each relation is named by both sides.
 */
import type { HostAdapters } from '../../../src/host-api/host.js';
import type { HostSite, SiteSyncAdapter, SiteSyncRun } from '../../../src/host-api/adapters/site-sync.js';

export interface MemorySync {
  /** The adapter of one tenant (all of them share the runs). */
  of(tenant: string): SiteSyncAdapter;
  /** The adapter of tenant "default" (the test renders' tenant). */
  adapter: SiteSyncAdapter;
  runs: (SiteSyncRun & { tenant: string })[];
}

const SITES: readonly HostSite[] = [
  { siteKey: 'default', childSiteKeys: ['child', 'unclaimed'], parentSiteKey: 'other-parent' },
  { siteKey: 'child', childSiteKeys: [], parentSiteKey: 'default' },
  { siteKey: 'other-parent', childSiteKeys: ['default'], parentSiteKey: null },
  { siteKey: 'stranger', childSiteKeys: [], parentSiteKey: null },
  // Listed as a child of default but naming no parent; adopter names default without being listed.
  { siteKey: 'unclaimed', childSiteKeys: [], parentSiteKey: null },
  { siteKey: 'adopter', childSiteKeys: [], parentSiteKey: 'default' },
];

export function memorySync(): MemorySync {
  const runs: MemorySync['runs'] = [];
  const of = (tenant: string): SiteSyncAdapter => ({
    async site(siteKey) {
      return SITES.find((s) => s.siteKey === siteKey) ?? null;
    },
    async sync(run) {
      const last = runs.filter((r) => r.to === run.to).reduce((m, r) => Math.max(m, r.now), -Infinity);
      if (last > run.notAfter) return { ok: false, lastSync: last };
      runs.push({ ...run, tenant });
      return { ok: true, runId: runs.length };
    },
  });
  return { of, adapter: of('default'), runs };
}

export function siteSyncTestAdapter(): (tenant: string) => Partial<HostAdapters> {
  const sync = memorySync();
  return (tenant) => ({ siteSync: sync.of(tenant) });
}
