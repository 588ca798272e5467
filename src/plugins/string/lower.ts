import { defineModifier } from '../types.js';
import { strArg } from '../../php/args.js';
import { strtolower } from '../../php/string/case.js';

/** Smarty 2.6: strtolower(), which changes ASCII letters only on PHP 8.2. */
export default defineModifier({
  kind: 'modifier',
  name: 'lower',
  origin: 'smarty',
  summary: 'Lower-cases ASCII letters (other characters are unchanged).',
  params: [],
  examples: [{ template: '{$s|lower}', vars: { s: 'Ünïcode Straße OK' }, output: 'Ünïcode straße ok' }],
  run(input) {
    return strtolower(strArg(input, 'strtolower', 1));
  },
});
