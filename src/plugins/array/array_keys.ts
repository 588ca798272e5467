import { defineModifier } from '../types.js';
import { arrayArg, boolArg } from '../../php/args.js';
import { arrayKeys } from '../../php/array/lookup.js';
import { given } from './shared.js';

export default defineModifier({
  kind: 'modifier',
  name: 'array_keys',
  summary: 'The keys of the array, or only the keys whose value equals filter_value (loose unless strict). Use `@`.',
  origin: 'php',
  params: [
    { name: 'filter_value', type: 'mixed' },
    { name: 'strict', type: 'bool', default: false },
  ],
  examples: [
    { template: "{$m|@array_keys|@implode:','}", vars: { m: { a: 1, b: 2, c: 1 } }, output: 'a,b,c' },
    { template: "{$m|@array_keys:1|@implode:','}", vars: { m: { a: 1, b: 2, c: '1' } }, output: 'a,c' },
  ],
  run(input, args) {
    const arr = arrayArg(input, 'array_keys', 1);
    if (!given(args, 0)) return arrayKeys(arr);
    return arrayKeys(arr, args[0], boolArg(args[1] ?? false, 'array_keys', 3, 'strict'));
  },
});
