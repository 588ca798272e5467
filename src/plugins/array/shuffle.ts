import { mutatingFunction } from './by-reference.js';
import { arrayArg } from '../../php/args.js';
import { shuffle } from '../../php/array/stack.js';

export default mutatingFunction(
  'shuffle',
  'Returns true, as PHP does; written first on a variable it also changes the variable. Use `@`.',
  [],
  [{ template: '{$l|@shuffle}', vars: { l: [1, 2, 3] }, output: '1' }],
  (input, _args, ctx) => shuffle(arrayArg(input, 'shuffle', 1), () => ctx.random()),
);
