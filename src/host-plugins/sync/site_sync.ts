/**
 * {site_sync}: which two sites may be synced, and how often; the adapter runs the sync.
 *
 * Rules (docs/site.md, "Site sync"; D108, D109): both sites are sites of the render's host (the
 * adapter answers only for those), they differ, and each is the render's own site, one of its
 * child sites or its parent site, where both sides name each other: the parent lists the child
 * in its child sites and the child names the parent as its parent (D158). One side's word alone
 * would let a site adopt any tenant whose key it guesses. A template reaches its own family of
 * sites and nothing else. Refused within 6 hours of the last completed sync into the
 * same target, against the render's clock.
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import type { HostSite, SyncType } from '../../host-api/adapters/site-sync.js';
import declaration from '../../plugins/host-sync/site_sync.js';

/** The spec's interval between two syncs into one site. */
export const SYNC_INTERVAL_SECONDS = 6 * 3600;

const SITE_KEY = /^[a-z0-9][a-z0-9_-]{0,62}$/;

function siteKey(name: string, value: unknown): string {
  const key = String(value ?? '');
  if (!SITE_KEY.test(key)) throw new BridgeError('E_BAD_ATTRIBUTE', `{site_sync} ${name}= is not a site key`);
  return key;
}

/** Is `other` the own site, a child of it, or its parent, each side naming the other? */
function related(own: HostSite, other: HostSite): boolean {
  const parentOf = (p: HostSite, c: HostSite) => p.childSiteKeys.includes(c.siteKey) && c.parentSiteKey === p.siteKey;
  return other.siteKey === own.siteKey || parentOf(own, other) || parentOf(other, own);
}

export const siteSync = implement(declaration, async (attrs, call, adapter) => {
  const tenant = call.identity.tenant;
  const from = siteKey('from_site_key', attrs.from_site_key);
  const to =
    attrs.to_site_key === undefined || attrs.to_site_key === null || attrs.to_site_key === ''
      ? null
      : siteKey('to_site_key', attrs.to_site_key);
  const type = Number(attrs.sync_type) as SyncType;

  const own = await adapter.site(tenant);
  if (!own) throw new BridgeError('E_HOST_FAILED', "{site_sync} the host does not know the render's own site");
  const target = to ?? own.siteKey;
  if (from === target)
    throw new BridgeError('E_BAD_ATTRIBUTE', '{site_sync} from_site_key and to_site_key name the same site');
  for (const key of [from, target]) {
    const site = key === own.siteKey ? own : await adapter.site(key);
    if (!site) throw new BridgeError('E_NOT_FOUND', `{site_sync} no site ${key} on this host`);
    if (!related(own, site))
      throw new BridgeError(
        'E_PERMISSION_DENIED',
        `{site_sync} ${key} is neither this site, one of its child sites nor its parent`,
      );
  }

  const now = call.render.now;
  const r = await adapter.sync({ from, to: target, type, now, notAfter: now - SYNC_INTERVAL_SECONDS });
  if (!r.ok) {
    const hours = Math.max(0, (r.lastSync + SYNC_INTERVAL_SECONDS - now) / 3600);
    throw new BridgeError(
      'E_RATE_LIMIT',
      `{site_sync} ${target} was synced less than 6 hours ago; the next sync into it is possible in ${hours.toFixed(1)} hours`,
    );
  }
  return {};
});
