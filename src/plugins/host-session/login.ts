import { defineFunction } from '../types.js';
import { ROW_BUDGETS } from '../budgets.js';

export default defineFunction({
  kind: 'function',
  name: 'login',
  host: 'sessions',
  budget: ROW_BUDGETS.sessions,
  summary:
    "Logs the request in as a member: a new session, whose cookie the response sets, so the browser's next requests are that member's. " +
    "For the rest of this render the identity stays what it was (the member the render started for, $smarty.session); what changes now is the request's session, which `use_current_session` of {api_internal} and {api_mng} takes over and {logout} ends. " +
    "`member_id` must be a numeric literal unless the render runs for a super user; never a super user's id (E_IDENTITY_DENIED); a member of this site (E_NOT_FOUND). " +
    'With a session already there, `overwrite=false` (the default) keeps it; `overwrite=true` ends it and starts the new one.',
  attrs: {
    member_id: {
      type: 'int',
      required: true,
      min: 1,
      literalUnlessSuperUser: true,
      doc: 'The member to log in as: a numeric literal; never a super user.',
    },
    overwrite: {
      type: 'bool',
      default: false,
      doc: 'Log in again when the request already has a session (false: keep that session).',
    },
  },
  examples: [
    {
      template:
        '{login member_id=2}{api_internal endpoint="/rcms-api/1/me" use_current_session=true var=r}{$r.member_id}',
      output: '2',
    },
    {
      template:
        '{login member_id=2}{login member_id=2 overwrite=true}{api_internal endpoint="/rcms-api/1/me" use_current_session=true var=r}{$r.member_id}',
      output: '2',
    },
  ],
});
