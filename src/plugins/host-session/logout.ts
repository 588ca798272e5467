import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'logout',
  host: 'sessions',
  summary:
    "Ends the request's session: removed from the site, its cookie cleared on the response. Without a session it does nothing. " +
    "The render's identity ($smarty.session, the member the render started for) stays as it was; `use_current_session` afterwards runs without a member.",
  attrs: {},
  examples: [
    {
      template:
        '{login member_id=2}{logout}{api_internal endpoint="/rcms-api/1/me" use_current_session=true var=r}[{$r.member_id}]',
      output: '[]',
    },
  ],
});
