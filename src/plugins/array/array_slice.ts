import { defineModifier } from '../types.js';
import { arrayArg, boolArg, intArg, optIntArg } from '../../php/args.js';
import { arraySlice } from '../../php/array/transform.js';

export default defineModifier({
  kind: 'modifier',
  name: 'array_slice',
  summary:
    'A part of the array from offset (negative counts from the end), length elements long; integer keys are renumbered unless preserve_keys. Use `@`.',
  origin: 'php',
  params: [
    { name: 'offset', type: 'int', required: true },
    { name: 'length', type: 'int', default: null },
    { name: 'preserve_keys', type: 'bool', default: false },
  ],
  examples: [{ template: "{$l|@array_slice:1:2|@implode:','}", vars: { l: ['a', 'b', 'c', 'd'] }, output: 'b,c' }],
  run(input, [offset, length, preserve]) {
    const fn = 'array_slice';
    return arraySlice(
      arrayArg(input, fn, 1),
      intArg(offset, fn, 2, 'offset'),
      optIntArg(length, fn, 3, 'length'),
      boolArg(preserve, fn, 4, 'preserve_keys'),
    );
  },
});
