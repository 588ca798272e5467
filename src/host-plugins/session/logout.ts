/** {logout}: ends the request's session (HostAdapters.sessions); nothing without one. */
import { implement } from '../plugin-contract.js';
import declaration from '../../plugins/host-session/logout.js';

export const logout = implement(declaration, async (_attrs, call, sessions) => {
  await sessions.end(call.identity.requestId);
  return {};
});
