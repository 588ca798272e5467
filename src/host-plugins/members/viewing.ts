/**
 * The viewing permission of members, the rule {assign_member_detail} applies: who may see whom,
 * and which fields (docs/decisions.md D56). The adapter only answers members and groups; the
 * rule is here.
 */
import type { MemberRecord, MembersAdapter } from '../../host-api/adapters/members.js';
import type { BridgeCall } from '../plugin-contract.js';

type Reader = Required<Pick<MembersAdapter, 'member' | 'groups'>>;

/** Whether the render's member sees `target`'s private fields (email, login_id): their own record, or a super user. */
export function seesPrivate(target: MemberRecord, call: BridgeCall): boolean {
  return call.identity.superUser || (call.identity.memberId !== null && call.identity.memberId === target.memberId);
}

/**
 * Whether the render's member may view `target`: their own record or a super user always; else
 * only an open profile in a group whose viewing permission names one of the viewer's groups. A
 * render without a member, or a viewer in no group, views nobody else.
 */
export async function mayView(target: MemberRecord, call: BridgeCall, members: Reader): Promise<boolean> {
  if (seesPrivate(target, call)) return true;
  const viewerId = call.identity.memberId;
  if (!target.open || viewerId === null || target.groupIds.length === 0) return false;
  const viewer = await members.member(viewerId);
  if (!viewer || viewer.groupIds.length === 0) return false;
  const mine = new Set(viewer.groupIds);
  const groups = await members.groups(target.groupIds);
  return groups.some((g) => g.viewerGroupIds.some((id) => mine.has(id)));
}
