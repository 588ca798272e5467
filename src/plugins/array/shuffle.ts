import { mutatingFunction } from './by-reference.js';
import { argArray } from '../../php/array/args.js';
import { shuffle } from '../../php/array/stack.js';

export default mutatingFunction(
  'shuffle',
  'Returns true, as PHP does; the input array itself is not changed. Use `@`.',
  [],
  [{ template: '{$l|@shuffle}', vars: { l: [1, 2, 3] }, output: '1' }],
  (input) => shuffle(argArray(input, 'shuffle', 1)).result,
);
