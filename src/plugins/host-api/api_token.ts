import { defineFunction } from '../types.js';
import { ROW_BUDGETS } from '../budgets.js';

export default defineFunction({
  kind: 'function',
  name: 'api_token',
  host: 'apiTokens',
  budget: ROW_BUDGETS.apiTokens,
  summary:
    "Gets an access token of one of the site's own APIs. `static`: an existing valid token, or a new one; `dynamic`: always new, for the member of the current session (none without one). " +
    'An API that is missing, belongs to another site or uses another token type is E_PERMISSION_DENIED (one error for all three). `expires` is bounded to 1..2592000 seconds (30 days).',
  attrs: {
    var: { type: 'varname', required: true, doc: 'Receives the token.' },
    type: { type: 'string', required: true, enum: ['static', 'dynamic'] },
    api_id: { type: 'int', required: true, min: 1 },
    expires: { type: 'int', min: 1, max: 2592000, doc: 'Seconds, for a new static token and for dynamic tokens.' },
    memo: { type: 'string', doc: 'Memo of a new static token (at most 200 characters).' },
    expires_var: { type: 'varname', doc: 'Receives the expiry as a Unix timestamp.' },
  },
  examples: [
    {
      template: '{api_token var=t type="static" api_id=1 expires_var=e}{$t} {$e}',
      output: 'static-token-1 1700086400',
    },
  ],
});
