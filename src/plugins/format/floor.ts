import { defineModifier } from '../types.js';
import { phpFloor } from '../../php/format/round.js';

export default defineModifier({
  kind: 'modifier',
  name: 'floor',
  origin: 'php',
  summary: 'PHP floor(): rounds down; always a float.',
  params: [],
  examples: [{ template: '{$y|floor}|{7|floor}', vars: { y: -2.5 }, output: '-3|7' }],
  run(input) {
    return phpFloor(input);
  },
});
