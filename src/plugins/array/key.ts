import { defineModifier } from '../types.js';
import { PhpObject } from '../../value/value.js';
import { arrayArg } from '../../php/args.js';
import { firstKey } from '../../php/array/lookup.js';

export default defineModifier({
  kind: 'modifier',
  name: 'key',
  summary:
    "The key at the array's internal pointer, which in a template is always the first key (null for an empty array). Use `@`.",
  origin: 'php',
  params: [],
  examples: [{ template: '{$m|@key}', vars: { m: { first: 1, second: 2 } }, output: 'first' }],
  run(input) {
    if (input instanceof PhpObject) return input.props.keys().next().value ?? null;
    return firstKey(arrayArg(input, 'key', 1));
  },
});
