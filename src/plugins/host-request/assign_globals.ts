import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'assign_globals',
  host: 'request',
  summary:
    'Values shared between the custom processes of the same request: `key` + `value` sets, `var` + `key` reads into var, `unset=true` clears (one key, or all without key). Scoped to the tenant and the request.',
  attrs: {
    var: { type: 'varname' },
    key: { type: 'string' },
    value: { type: 'mixed' },
    unset: { type: 'bool' },
  },
  examples: [{ template: '{assign_globals key="k" value="v"}{assign_globals var=x key="k"}{$x}', output: 'v' }],
});
