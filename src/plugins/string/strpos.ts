import { defineModifier } from '../types.js';
import { intArg, strArg } from '../../php/args.js';
import { strpos } from '../../php/string/search.js';

export default defineModifier({
  kind: 'modifier',
  name: 'strpos',
  origin: 'php',
  summary: 'Byte offset of the first occurrence of needle, or false.',
  params: [
    { name: 'needle', type: 'string', required: true },
    { name: 'offset', type: 'int', default: 0 },
  ],
  examples: [
    { template: "{$s|strpos:'b'}|{if $s|strpos:'z' === false}none{/if}", vars: { s: 'aabb' }, output: '2|none' },
  ],
  run(input, [needle, offset]) {
    return strpos(
      strArg(input, 'strpos', 1, 'haystack'),
      strArg(needle, 'strpos', 2, 'needle'),
      intArg(offset, 'strpos', 3, 'offset'),
    );
  },
});
