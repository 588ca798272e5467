/** STAND-IN until the members family lands (schema/members-stand-in.ts): member 1 (the super user) and member 2 exist. */
import type { SiteContext } from '../site-context.js';

export async function membersStandInSample(ctx: SiteContext): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    for (const id of [1, 2]) await tx.run('INSERT INTO members_stand_in (tenant, member_id) VALUES (?, ?) ON CONFLICT DO NOTHING', [ctx.tenant, id]);
  });
}
