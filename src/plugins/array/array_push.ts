import { mutatingFunction } from './by-reference.js';
import { arrayArg } from '../../php/args.js';
import { arrayPush } from '../../php/array/stack.js';

export default mutatingFunction(
  'array_push',
  'The number of elements after appending the arguments, as PHP returns it. Written first on a variable it also changes the variable. Use `@`.',
  [{ name: 'values', type: 'mixed', doc: 'One or more values to append.' }],
  [{ template: "{$l|@array_push:'x':'y'}", vars: { l: ['a'] }, output: '3' }],
  (input, args) =>
    arrayPush(
      arrayArg(input, 'array_push', 1),
      args.filter((a) => a !== undefined),
    ),
);
