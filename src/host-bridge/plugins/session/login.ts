/**
 * {login}: a new session of the member for the request (HostAdapters.sessions), unless the
 * request has one and overwrite is false. The member is checked first, whatever happens next,
 * so a wrong member_id is an error even where nothing would change.
 */
import type { HostPlugin } from '../../plugin-contract.js';
import { missingAdapter } from '../../capabilities.js';
import { checkActingMember } from './acting-member.js';

export const login: HostPlugin = {
  name: 'login',
  async run(attrs, call) {
    const sessions = call.host.sessions;
    if (!sessions) throw missingAdapter('{login}', 'sessions');
    const memberId = Number(attrs.member_id);
    await checkActingMember('login', memberId, call);
    const { tenant, requestId } = call.identity;
    if (attrs.overwrite !== true && (await sessions.current(tenant, requestId)) !== null) return {};
    await sessions.start(tenant, requestId, memberId);
    return {};
  },
};
