import { defineModifier } from '../types.js';
import { phpStrval } from '../../php/format/intval.js';

export default defineModifier({
  kind: 'modifier',
  name: 'strval',
  origin: 'php',
  summary: 'PHP strval(): the string form (floats with precision 14, true is "1", false and null "").',
  params: [],
  examples: [
    {
      template: '{$i|strval}|{$f|strval}|{$t|strval}',
      vars: { i: 7, f: 0.30000000000000004, t: true },
      output: '7|0.3|1',
    },
  ],
  run(input) {
    return phpStrval(input);
  },
});
