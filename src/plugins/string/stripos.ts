import { defineModifier } from '../types.js';
import { intArg, strArg } from '../../php/args.js';
import { stripos } from '../../php/string/search.js';

export default defineModifier({
  kind: 'modifier',
  name: 'stripos',
  origin: 'php',
  summary: 'Byte offset of the first occurrence of needle (ASCII case-insensitive), or false.',
  params: [
    { name: 'needle', type: 'string', required: true },
    { name: 'offset', type: 'int', default: 0 },
  ],
  examples: [
    { template: "{$s|stripos:'B'}|{if $s|stripos:'z' === false}none{/if}", vars: { s: 'aabb' }, output: '2|none' },
  ],
  run(input, [needle, offset]) {
    return stripos(
      strArg(input, 'stripos', 1, 'haystack'),
      strArg(needle, 'stripos', 2, 'needle'),
      intArg(offset, 'stripos', 3, 'offset'),
    );
  },
});
