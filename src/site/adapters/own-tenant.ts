/** The guard every adapter of a local site starts with: it answers for its own tenant only. */
import type { SiteContext } from '../site-context.js';

export function ownTenant(ctx: SiteContext): (tenant: string) => void {
  return (tenant) => {
    if (tenant !== ctx.tenant) throw new Error(`site ${ctx.tenant} was asked for tenant ${tenant}`);
  };
}
