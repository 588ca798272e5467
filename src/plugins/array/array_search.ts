import { defineModifier } from '../types.js';
import { arrayArg, boolArg } from '../../php/args.js';
import { arraySearch } from '../../php/array/lookup.js';

export default defineModifier({
  kind: 'modifier',
  name: 'array_search',
  summary: 'The key of the first element equal to the input (the needle), or false. Loose comparison unless strict.',
  origin: 'php',
  params: [
    { name: 'haystack', type: 'array', required: true },
    { name: 'strict', type: 'bool', default: false },
  ],
  examples: [{ template: "{'b'|array_search:$m}", vars: { m: { x: 'a', y: 'b' } }, output: 'y' }],
  run: (needle, [haystack, strict]) =>
    arraySearch(
      needle,
      arrayArg(haystack, 'array_search', 2, 'haystack'),
      boolArg(strict, 'array_search', 3, 'strict'),
    ),
});
