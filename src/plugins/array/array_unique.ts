import { defineModifier } from '../types.js';
import { arrayArg, int32Arg } from '../../php/args.js';
import { arrayUnique } from '../../php/array/transform.js';
import { SORT_STRING } from '../../php/array/sort.js';

export default defineModifier({
  kind: 'modifier',
  name: 'array_unique',
  summary:
    'The array without repeated values: the first occurrence stays, with its key; values are compared as strings by default. Use `@`.',
  origin: 'php',
  params: [{ name: 'flags', type: 'int', default: SORT_STRING }],
  examples: [
    {
      template: '{$l|@array_unique|@json_encode}',
      vars: { l: ['a', 'b', 'a', 1, '1'] },
      output: '{"0":"a","1":"b","3":1}',
    },
  ],
  run: (input, [flags]) => arrayUnique(arrayArg(input, 'array_unique', 1), int32Arg(flags, 'array_unique', 2, 'flags')),
});
