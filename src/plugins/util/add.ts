import { defineFunction } from '../types.js';
import { add } from '../../value/arith.js';
import { inPlaceAttrs, updateInPlace } from './in-place-arith.js';

export default defineFunction({
  kind: 'function',
  name: 'add',
  summary:
    'Adds `value` to the variable in place (PHP `+`: ints stay ints, a float or numeric float string makes a float, a missing variable counts as 0). Prints nothing.',
  attrs: inPlaceAttrs,
  examples: [
    { template: '{assign var=i value=3}{add var=i value=5}{$i}', output: '8' },
    { template: "{add var=n value='1.5'}{add var=n value=2}{$n}|{add var=m.total value=4}{$m.total}", output: '3.5|4' },
  ],
  run(attrs, ctx) {
    updateInPlace('add', add, attrs, ctx);
  },
});
