/**
 * The member_id rules of the session plugins ({login}, {assign_api_credential}), on top of what
 * the bridge already checked (a numeric literal unless the render runs for a super user,
 * checkIdentityAttrs): never a super user, and a member of the render's tenant. Without the
 * adapters to check either, member_id is refused (fail closed).
 */
import type { BridgeCall } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { missingAdapter } from '../../host-api/capabilities.js';

export async function checkActingMember(plugin: string, memberId: number, call: BridgeCall): Promise<void> {
  const members = call.host.members;
  if (!members) throw missingAdapter(`{${plugin}} member_id`, 'members');
  if (!members.exists) throw missingAdapter(`{${plugin}} member_id`, 'members.exists');
  if (await members.isSuperUser(memberId))
    throw new BridgeError('E_IDENTITY_DENIED', `{${plugin}} cannot act as a super user (member_id=${memberId})`);
  if (!(await members.exists(memberId)))
    throw new BridgeError('E_NOT_FOUND', `{${plugin}} member_id=${memberId} is not a member of this site`);
}
