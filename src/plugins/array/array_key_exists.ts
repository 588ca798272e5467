import { defineModifier } from '../types.js';
import { PhpArray } from '../../value/value.js';
import { arrayKeyExists } from '../../php/array/lookup.js';

export default defineModifier({
  kind: 'modifier',
  name: 'array_key_exists',
  summary:
    'Whether the input key exists in the array (also when its value is null); false when the argument is not an array.',
  origin: 'platform',
  params: [{ name: 'array', type: 'array', required: true, doc: 'The array to look in.' }],
  examples: [
    { template: "{if 'b'|array_key_exists:$m}yes{else}no{/if}", vars: { m: { a: 1, b: null } }, output: 'yes' },
    { template: "{if 'z'|array_key_exists:$m}yes{else}no{/if}", vars: { m: { a: 1 } }, output: 'no' },
  ],
  run(key, [arr]) {
    return arr instanceof PhpArray ? arrayKeyExists(key, arr) : false;
  },
});
