import { defineModifier } from '../types.js';
import { arrayArg } from '../../php/args.js';
import { arrayValues } from '../../php/array/lookup.js';

export default defineModifier({
  kind: 'modifier',
  name: 'array_values',
  summary: 'The values of the array, renumbered from 0. Use `@`.',
  origin: 'php',
  params: [],
  examples: [{ template: '{$m|@array_values|@json_encode}', vars: { m: { a: 'x', b: 'y' } }, output: '["x","y"]' }],
  run: (input) => arrayValues(arrayArg(input, 'array_values', 1)),
});
