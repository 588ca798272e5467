/**
 * {login}: a new session of the member for the request (HostAdapters.sessions), unless the
 * request has one and overwrite is false. The member is checked first, whatever happens next,
 * so a wrong member_id is an error even where nothing would change.
 */
import { implement } from '../plugin-contract.js';
import { checkActingMember } from './acting-member.js';
import declaration from '../../plugins/host-session/login.js';

export const login = implement(declaration, async (attrs, call, sessions) => {
  const memberId = Number(attrs.member_id);
  await checkActingMember('login', memberId, call);
  const { requestId } = call.identity;
  if (attrs.overwrite !== true && (await sessions.current(requestId)) !== null) return {};
  await sessions.start(requestId, memberId);
  return {};
});
