import { defineModifier } from '../types.js';
import { phpCeil } from '../../php/format/round.js';

export default defineModifier({
  kind: 'modifier',
  name: 'ceil',
  origin: 'php',
  summary: 'PHP ceil(): rounds up; always a float (ceil(-0.5) prints -0).',
  params: [],
  examples: [{ template: '{$y|ceil}|{$h|ceil}', vars: { y: -2.5, h: -0.5 }, output: '-2|-0' }],
  run(input) {
    return phpCeil(input);
  },
});
