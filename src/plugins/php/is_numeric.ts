import { defineModifier } from '../types.js';
import { isNumeric } from '../../value/convert.js';

/**
 * PHP 8 is_numeric: ints and floats, and decimal strings with optional sign, fraction and
 * exponent; leading and trailing whitespace (space, \t, \n, \r, \v, \f) is allowed, hex,
 * "1e", "." and "" are not.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'is_numeric',
  origin: 'php',
  summary: 'True for numbers and numeric strings (PHP 8 rules: surrounding whitespace allowed).',
  params: [],
  examples: [
    {
      template: "[{'12.5'|is_numeric}][{' 1e3 '|is_numeric}][{'0x1A'|is_numeric}][{'12abc'|is_numeric}]",
      output: '[1][1][][]',
    },
    { template: '{if !$p|is_numeric}not a number{/if}', vars: { p: 'abc' }, output: 'not a number' },
  ],
  run(input) {
    return isNumeric(input);
  },
});
