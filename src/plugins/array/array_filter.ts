import { defineModifier } from '../types.js';
import { PhpTypeError } from '../../value/convert.js';
import { arrayArg } from '../../php/args.js';
import { arrayFilter } from '../../php/array/transform.js';

export default defineModifier({
  kind: 'modifier',
  name: 'array_filter',
  summary:
    'The array without its falsy values ("", "0", 0, null, false, []), keys kept. Callbacks are not supported. Use `@`.',
  origin: 'php',
  params: [{ name: 'callback', type: 'mixed', default: null }],
  examples: [
    {
      template: '{$l|@array_filter|@json_encode}',
      vars: { l: ['a', '', '0', 'b', null] },
      output: '{"0":"a","3":"b"}',
    },
  ],
  run(input, [callback]) {
    const arr = arrayArg(input, 'array_filter', 1);
    // A callback would name a PHP function to call: outside the sandbox's allow-list.
    if (callback !== null && callback !== undefined)
      throw new PhpTypeError('array_filter(): callbacks are not supported in templates');
    return arrayFilter(arr);
  },
});
