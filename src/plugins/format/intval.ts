import { defineModifier } from '../types.js';
import { phpIntval } from '../../php/format/intval.js';

export default defineModifier({
  kind: 'modifier',
  name: 'intval',
  origin: 'php',
  summary: 'PHP intval(): the leading integer ("12abc" is 12), floats truncated; base for strings.',
  params: [{ name: 'base', type: 'int', default: 10 }],
  examples: [
    {
      template: "{$z|intval}|{3.99|intval}|{'ff'|intval:16}|{'0x1A'|intval:0}",
      vars: { z: '12abc' },
      output: '12|3|255|26',
    },
  ],
  run(input, [base]) {
    return phpIntval(input, base);
  },
});
