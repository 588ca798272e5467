import { defineModifier } from '../types.js';
import { phpAbs } from '../../php/format/round.js';

export default defineModifier({
  kind: 'modifier',
  name: 'abs',
  origin: 'php',
  summary: 'PHP abs(): ints stay ints, floats stay floats; numeric strings are converted.',
  params: [],
  examples: [{ template: "{$i|abs}|{$f|abs}|{'-4.5'|abs}", vars: { i: -7, f: -2.5 }, output: '7|2.5|4.5' }],
  run(input) {
    return phpAbs(input);
  },
});
