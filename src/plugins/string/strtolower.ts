import { defineModifier } from '../types.js';
import { toStr } from '../../value/convert.js';
import { isScalarOrNull } from '../../php/args.js';
import { strtolower } from '../../php/string/case.js';

/** The platform's strtolower: PHP 8.2's (ASCII letters only), with '' for arrays and objects. */
export default defineModifier({
  kind: 'modifier',
  name: 'strtolower',
  origin: 'platform',
  summary: 'Lower-cases ASCII letters; arrays and objects give an empty string.',
  params: [],
  examples: [{ template: '{$s|strtolower}', vars: { s: 'ÀB Cd' }, output: 'Àb cd' }],
  run(input) {
    return isScalarOrNull(input) ? strtolower(toStr(input)) : '';
  },
});
