import { defineModifier } from '../types.js';
import { arrayArg } from '../../php/args.js';
import { arraySum } from '../../php/array/transform.js';

export default defineModifier({
  kind: 'modifier',
  name: 'array_sum',
  summary:
    'The sum of the values (int, or float when a float is involved); arrays are skipped, non-numeric strings count as 0. Use `@`.',
  origin: 'php',
  params: [],
  examples: [{ template: '{$l|@array_sum}', vars: { l: [1, '2', 3.5] }, output: '6.5' }],
  run: (input) => arraySum(arrayArg(input, 'array_sum', 1)),
});
