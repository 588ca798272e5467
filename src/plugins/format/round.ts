import { defineModifier } from '../types.js';
import { phpRound } from '../../php/format/round.js';

export default defineModifier({
  kind: 'modifier',
  name: 'round',
  origin: 'php',
  summary: 'PHP round(): half away from zero, with pre-rounding (round(1.005, 2) is 1.01); returns a float.',
  params: [{ name: 'precision', type: 'int', default: 0 }],
  examples: [
    { template: '{$x|round:2}|{$y|round}|{1234567|round:-3}', vars: { x: 3.045, y: -2.5 }, output: '3.05|-3|1235000' },
  ],
  run(input, [precision]) {
    return phpRound(input, precision);
  },
});
