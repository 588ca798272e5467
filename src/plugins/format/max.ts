import { defineModifier } from '../types.js';
import { phpMaxMin } from '../../php/format/intval.js';

/** `{$a|max:$b:$c}` is max($a, $b, $c); `{$list|@max}` is max($list). */
export default defineModifier({
  kind: 'modifier',
  name: 'max',
  origin: 'php',
  summary: 'PHP max(): of the input and the arguments, or of an array (use @); PHP 8 comparison rules.',
  params: [],
  examples: [{ template: "{3|max:7:5}|{$l|@max}|{'10'|max:'9'}", vars: { l: [4, 9, 2] }, output: '7|9|10' }],
  run(input, args) {
    return phpMaxMin('max', [input, ...args]);
  },
});
