import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'api_internal',
  host: 'internalApi',
  summary:
    "Requests an endpoint of the site's own API (scoped to the render's tenant) and stores the decoded JSON in `var`; `status_var` is 1 for a 2xx answer, 0 otherwise. " +
    '`member_id` runs the request as that member: never a super user (E_IDENTITY_DENIED), never with `direct` (E_BAD_COMBINATION); `direct` only for endpoints defined with GET (E_BAD_COMBINATION). ' +
    'member_id must be a numeric literal unless the render runs for a super user (the compiler records the literals; the host checks every call). Secret handles are refused everywhere (E_SECRET_DENIED).',
  attrs: {
    endpoint: { type: 'string', required: true, doc: 'Endpoint path, e.g. /rcms-api/1/topics.' },
    method: { type: 'string', enum: ['GET', 'POST'], default: 'GET' },
    query: { type: 'string', doc: 'Query string.' },
    queries: { type: 'array', doc: 'Query array (http_build_query), after `query`.' },
    headers: { type: 'array', doc: 'Strings `Name: value`.' },
    cache_time: {
      type: 'int',
      min: 0,
      max: 1440,
      doc: 'Minutes; GET without member_id, use_current_session and direct only.',
    },
    var: { type: 'varname', doc: 'Receives the decoded JSON (null when the answer is not JSON).' },
    status_var: { type: 'varname', doc: '1 success (2xx), 0 failure.' },
    member_id: {
      type: 'int',
      min: 1,
      literalUnlessSuperUser: true,
      doc: 'Run as this member: a numeric literal; never a super user; not with direct.',
    },
    use_current_session: { type: 'bool', doc: 'Run with the current session (the logged-in member).' },
    direct: { type: 'bool', doc: 'Run in-process without the network; GET endpoints only; not with member_id.' },
  },
  examples: [
    {
      template: '{api_internal endpoint="/rcms-api/1/topics" var=r status_var=s}{$s}:{$r.list.0.subject}',
      output: '1:Hello',
    },
    { template: '{api_internal endpoint="/rcms-api/1/me" member_id=5 var=r}{$r.member_id}', output: '5' },
    { template: '{api_internal endpoint="/rcms-api/1/topics" direct=true var=r}{$r.list|@count}', output: '2' },
  ],
});
