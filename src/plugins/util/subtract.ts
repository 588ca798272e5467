import { defineFunction } from '../types.js';
import { sub } from '../../value/arith.js';
import { inPlaceAttrs, updateInPlace } from './in-place-arith.js';

export default defineFunction({
  kind: 'function',
  name: 'subtract',
  summary:
    'Subtracts `value` from the variable in place (PHP `-`: ints stay ints, a float or numeric float string makes a float, a missing variable counts as 0). Prints nothing.',
  attrs: inPlaceAttrs,
  examples: [
    { template: '{assign var=i value=10}{subtract var=i value=3}{$i}', output: '7' },
    {
      template: "{subtract var=n value=2}{$n}|{assign var=f value='1.25'}{subtract var=f value=1}{$f}",
      output: '-2|0.25',
    },
  ],
  run(attrs, ctx) {
    updateInPlace('subtract', sub, attrs, ctx);
  },
});
