import { mutatingFunction } from './by-reference.js';
import { arrayArg } from '../../php/args.js';
import { arrayShift } from '../../php/array/stack.js';

export default mutatingFunction(
  'array_shift',
  'The first element of the array (null when empty). Written first on a variable it also changes the variable. Use `@`.',
  [],
  [{ template: '{$l|@array_shift}', vars: { l: ['a', 'b', 'c'] }, output: 'a' }],
  (input) => arrayShift(arrayArg(input, 'array_shift', 1)),
);
