import { defineModifier } from '../types.js';
import { phpFloatval } from '../../php/format/intval.js';

export default defineModifier({
  kind: 'modifier',
  name: 'floatval',
  origin: 'php',
  summary: 'PHP floatval(): the leading number of a string ("12.5abc" is 12.5).',
  params: [],
  examples: [
    { template: "{$z|floatval}|{'1.5e3'|floatval}|{'abc'|floatval}", vars: { z: '12.5abc' }, output: '12.5|1500|0' },
  ],
  run(input) {
    return phpFloatval(input);
  },
});
