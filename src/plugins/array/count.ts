import { defineModifier } from '../types.js';
import { PhpArray } from '../../value/value.js';
import { countArray, countMode } from '../../php/array/count.js';

export default defineModifier({
  kind: 'modifier',
  name: 'count',
  summary:
    'Number of elements of an array; with mode 1 (COUNT_RECURSIVE) the elements of nested arrays count too. 0 for anything that is not an array (PHP would say 1 or throw). Use `@`.',
  origin: 'platform',
  params: [
    {
      name: 'mode',
      type: 'int',
      doc: '0 (COUNT_NORMAL, the default) or 1 (COUNT_RECURSIVE); anything else is an error, as in PHP.',
    },
  ],
  examples: [
    { template: '{$list|@count}', vars: { list: ['a', 'b', 'c'] }, output: '3' },
    { template: '{$tree|@count:1}', vars: { tree: ['a', ['b', 'c']] }, output: '4' },
    { template: '{$s|@count}', vars: { s: 'text' }, output: '0' },
  ],
  run(input, [mode]) {
    // PHP checks the mode before the value; the platform then counts a non-array as 0.
    const m = countMode(mode);
    return input instanceof PhpArray ? countArray(input, m) : 0;
  },
});
