import { defineModifier } from '../types.js';
import { PhpTypeError } from '../../value/convert.js';
import { int64Arg } from '../../php/args.js';
import { intInRange } from '../../value/int64.js';

/**
 * `{$min|mt_rand:$max}`: a random int in [min, max] (PHP mt_rand(min, max)). The input is
 * always passed, so the one-argument form is PHP's ArgumentCountError.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'mt_rand',
  origin: 'php',
  summary: 'PHP mt_rand(min, max): the input is min, the argument max (inclusive).',
  params: [{ name: 'max', type: 'int' }],
  examples: [{ template: '{5|mt_rand:5}', output: '5' }],
  run(input, args, ctx) {
    if (args.length === 0 || args[0] === undefined)
      throw new PhpTypeError('mt_rand() expects exactly 2 arguments, 1 given');
    const min = int64Arg(input, 'mt_rand', 1, 'min');
    const max = int64Arg(args[0], 'mt_rand', 2, 'max');
    if (max < min)
      throw new PhpTypeError('mt_rand(): Argument #2 ($max) must be greater than or equal to argument #1 ($min)');
    return intInRange(min, max, ctx.random());
  },
});
