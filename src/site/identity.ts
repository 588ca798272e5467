/** The identity of a render on a site: tenant = site_key, the member and whether site.json makes them a super user. */
import type { RenderIdentity } from '../index.js';
import type { SiteConfig } from './config.js';

export interface IdentityOptions {
  memberId?: number | null;
  context?: RenderIdentity['context'];
  /** The request the render serves; absent: a request of its own. */
  requestId?: string;
}

/** Request ids that name no request of a caller's: each such render a request of its own. */
let requestSeq = 0;

export function siteIdentity(config: SiteConfig, opts: IdentityOptions = {}): RenderIdentity {
  const memberId = opts.memberId ?? null;
  return {
    tenant: config.site_key,
    memberId,
    superUser: memberId !== null && config.super_users.includes(memberId),
    context: opts.context ?? 'web',
    requestId: opts.requestId ?? `cli-${process.pid}-${++requestSeq}`,
  };
}
