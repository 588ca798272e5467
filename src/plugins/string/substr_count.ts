import { defineModifier } from '../types.js';
import { intArg, optIntArg, strArg } from '../../php/args.js';
import { substrCount } from '../../php/string/search.js';

export default defineModifier({
  kind: 'modifier',
  name: 'substr_count',
  origin: 'php',
  summary: 'Number of non-overlapping occurrences of needle.',
  params: [
    { name: 'needle', type: 'string', required: true },
    { name: 'offset', type: 'int', default: 0 },
    { name: 'length', type: 'int', default: null },
  ],
  examples: [{ template: "{$s|substr_count:'an'}", vars: { s: 'banana' }, output: '2' }],
  run(input, [needle, offset, length]) {
    return substrCount(
      strArg(input, 'substr_count', 1, 'haystack'),
      strArg(needle, 'substr_count', 2, 'needle'),
      intArg(offset, 'substr_count', 3, 'offset'),
      optIntArg(length, 'substr_count', 4, 'length'),
    );
  },
});
