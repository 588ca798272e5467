import { defineModifier } from '../types.js';
import { PhpArray } from '../../value/value.js';
import { toBool } from '../../value/convert.js';
import { inArray } from '../../php/array/lookup.js';

export default defineModifier({
  kind: 'modifier',
  name: 'in_array',
  summary:
    'Whether the input (the needle) is a value of the array; loose comparison unless strict. false when the haystack is not an array.',
  origin: 'platform',
  params: [
    { name: 'haystack', type: 'array', required: true },
    { name: 'strict', type: 'bool', default: false },
  ],
  examples: [
    { template: "{if 'b'|in_array:$l}yes{else}no{/if}", vars: { l: ['a', 'b'] }, output: 'yes' },
    { template: "{if '1'|in_array:$l:true}yes{else}no{/if}", vars: { l: [1, 2] }, output: 'no' },
  ],
  run(needle, [haystack, strict]) {
    return haystack instanceof PhpArray ? inArray(needle, haystack, toBool(strict)) : false;
  },
});
