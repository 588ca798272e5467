/** {logout}: ends the request's session (HostAdapters.sessions); nothing without one. */
import type { HostPlugin } from '../../plugin-contract.js';
import { missingAdapter } from '../../capabilities.js';

export const logout: HostPlugin = {
  name: 'logout',
  async run(_attrs, call) {
    if (!call.host.sessions) throw missingAdapter('{logout}', 'sessions');
    await call.host.sessions.end(call.identity.tenant, call.identity.requestId);
    return {};
  },
};
