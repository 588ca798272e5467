import { defineModifier } from '../types.js';
import { phpMaxMin } from '../../php/format/intval.js';

/** `{$a|min:$b}` is min($a, $b); `{$list|@min}` is min($list). */
export default defineModifier({
  kind: 'modifier',
  name: 'min',
  origin: 'php',
  summary: 'PHP min(): of the input and the arguments, or of an array (use @); PHP 8 comparison rules.',
  params: [],
  examples: [{ template: '{3|min:7:5}|{$l|@min}', vars: { l: [4, 9, 2] }, output: '3|2' }],
  run(input, args) {
    return phpMaxMin('min', [input, ...args]);
  },
});
