import { defineModifier } from '../types.js';
import { toStr } from '../../value/convert.js';
import { isScalarOrNull } from '../../php/args.js';
import { strtoupper } from '../../php/string/case.js';

/** The platform's strtoupper: PHP 8.2's (ASCII letters only), with '' for arrays and objects. */
export default defineModifier({
  kind: 'modifier',
  name: 'strtoupper',
  origin: 'platform',
  summary: 'Upper-cases ASCII letters; arrays and objects give an empty string.',
  params: [],
  examples: [{ template: '{$s|strtoupper}', vars: { s: 'àb cd' }, output: 'àB CD' }],
  run(input) {
    return isScalarOrNull(input) ? strtoupper(toStr(input)) : '';
  },
});
