import { defineModifier } from '../types.js';
import { strArg } from '../../php/args.js';
import { strtoupper } from '../../php/string/case.js';

/** Smarty 2.6: strtoupper(), which changes ASCII letters only on PHP 8.2. */
export default defineModifier({
  kind: 'modifier',
  name: 'upper',
  origin: 'smarty',
  summary: 'Upper-cases ASCII letters (other characters are unchanged).',
  params: [],
  examples: [{ template: '{$s|upper}', vars: { s: 'Ünïcode Straße ok' }, output: 'ÜNïCODE STRAßE OK' }],
  run(input) {
    return strtoupper(strArg(input, 'strtoupper', 1));
  },
});
