import { defineModifier } from '../types.js';
import { arrayArg, boolArg } from '../../php/args.js';
import { arrayReverse } from '../../php/array/transform.js';

export default defineModifier({
  kind: 'modifier',
  name: 'array_reverse',
  summary: 'The array in reverse order; integer keys are renumbered unless preserve_keys. Use `@`.',
  origin: 'php',
  params: [{ name: 'preserve_keys', type: 'bool', default: false }],
  examples: [{ template: "{$l|@array_reverse|@implode:','}", vars: { l: ['a', 'b', 'c'] }, output: 'c,b,a' }],
  run: (input, [preserve]) =>
    arrayReverse(arrayArg(input, 'array_reverse', 1), boolArg(preserve, 'array_reverse', 2, 'preserve_keys')),
});
