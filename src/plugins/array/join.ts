import { defineModifier } from '../types.js';
import { joinModifier } from './join-modifier.js';

export default defineModifier({
  kind: 'modifier',
  name: 'join',
  summary: 'The same as implode: `sep|join:$array` or `$array|@join:sep`.',
  origin: 'platform',
  params: [{ name: 'value', type: 'mixed', doc: 'The array (when the input is the separator) or the separator.' }],
  examples: [
    { template: "{' / '|join:$m}", vars: { m: { x: 1, y: 2 } }, output: '1 / 2' },
    { template: "{'abc'|join}", output: 'abc' },
  ],
  run: joinModifier,
});
