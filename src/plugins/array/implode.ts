import { defineModifier } from '../types.js';
import { joinModifier } from './join-modifier.js';

export default defineModifier({
  kind: 'modifier',
  name: 'implode',
  summary:
    "Joins array elements with a separator: `sep|implode:$array` (PHP's order) or `$array|@implode:sep` (legacy order); no separator joins with ''. null or an empty array gives '', a string without argument is returned as is, other shapes give null.",
  origin: 'platform',
  params: [{ name: 'value', type: 'mixed', doc: 'The array (when the input is the separator) or the separator.' }],
  examples: [
    { template: "{','|implode:$l}", vars: { l: ['a', 'b', 'c'] }, output: 'a,b,c' },
    { template: "{$l|@implode:'-'}", vars: { l: ['a', 'b'] }, output: 'a-b' },
    { template: '{$l|@implode}', vars: { l: ['x', 1, 2.5] }, output: 'x12.5' },
  ],
  run: joinModifier,
});
