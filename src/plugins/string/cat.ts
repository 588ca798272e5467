import { defineModifier } from '../types.js';
import { toStr } from '../../value/convert.js';
import { isScalarOrNull } from '../../php/args.js';
import type { Value } from '../../value/value.js';

/** The platform's cat: PHP concatenation, except that arrays and objects count as ''. */
const part = (v: Value) => (isScalarOrNull(v) ? toStr(v) : '');

export default defineModifier({
  kind: 'modifier',
  name: 'cat',
  origin: 'smarty',
  summary: 'Appends its argument; arrays, objects and null count as an empty string.',
  params: [{ name: 'cat', type: 'mixed', default: '' }],
  examples: [
    { template: "{$s|cat:' world'}", vars: { s: 'hello' }, output: 'hello world' },
    { template: '{$n|cat:$n}', vars: { n: 1.5 }, output: '1.51.5' },
  ],
  run(input, [cat]) {
    return part(input) + part(cat);
  },
});
