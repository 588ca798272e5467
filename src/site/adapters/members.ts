/**
 * Whether a member exists on the site: the one question {login} and {assign_api_credential} ask
 * of members before acting as one. Until the members family keeps members, a member is a super
 * user of site.json or a row of the stand-in table (schema/members-stand-in.ts); point this at the
 * members family's adapter when it lands.
 */
import type { SiteContext } from '../site-context.js';

export async function memberExists(ctx: SiteContext, memberId: number): Promise<boolean> {
  if (ctx.config.super_users.includes(memberId)) return true;
  return (await ctx.db.get('SELECT 1 AS found FROM members_stand_in WHERE tenant = ? AND member_id = ?', [ctx.tenant, memberId])) !== undefined;
}
