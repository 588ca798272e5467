import { defineModifier } from '../types.js';
import { PhpArray } from '../../runtime/value.js';

export default defineModifier({
  kind: 'modifier',
  name: 'count',
  summary: 'Number of elements of an array; 0 for anything that is not an array (PHP would say 1 or throw). Use `@`.',
  origin: 'platform',
  params: [],
  examples: [
    { template: '{$list|@count}', vars: { list: ['a', 'b', 'c'] }, output: '3' },
    { template: '{$s|@count}', vars: { s: 'text' }, output: '0' },
  ],
  run(input) {
    return input instanceof PhpArray ? input.size : 0;
  },
});
