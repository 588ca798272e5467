import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'api_mng',
  host: 'internalApi',
  summary:
    "Requests an endpoint of the site's management API (scoped to the render's tenant; `Accept: application/json` is added) and stores the decoded JSON in `var`; `status_var` 1 for 2xx, 0 otherwise. " +
    '`member_id` has the rules of api_internal (never a super user, E_IDENTITY_DENIED). `files` is not supported (E_NOT_IMPLEMENTED).',
  attrs: {
    endpoint: { type: 'string', required: true, doc: 'Management endpoint path, e.g. /management/topics/list/.' },
    method: { type: 'string', enum: ['GET', 'POST'], default: 'GET' },
    query: { type: 'string' },
    queries: { type: 'array' },
    headers: { type: 'array', doc: 'Strings `Name: value`.' },
    files: { type: 'array', doc: 'Not supported yet: a non-empty list is E_NOT_IMPLEMENTED.' },
    var: { type: 'varname' },
    status_var: { type: 'varname', doc: '1 success, 0 failure.' },
    member_id: {
      type: 'int',
      min: 1,
      literalUnlessSuperUser: true,
      doc: 'Run as this member: a numeric literal; never a super user.',
    },
    use_current_session: { type: 'bool' },
  },
  examples: [
    { template: '{api_mng endpoint="/management/topics/list/" var=r status_var=s}{$s}:{$r.total}', output: '1:2' },
  ],
});
