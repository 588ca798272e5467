import { mutatingFunction } from './by-reference.js';
import { arrayArg } from '../../php/args.js';
import { arrayPop } from '../../php/array/stack.js';

export default mutatingFunction(
  'array_pop',
  'The last element of the array (null when empty). Written first on a variable it also changes the variable. Use `@`.',
  [],
  [{ template: '{$l|@array_pop}', vars: { l: ['a', 'b', 'c'] }, output: 'c' }],
  (input) => arrayPop(arrayArg(input, 'array_pop', 1)),
);
