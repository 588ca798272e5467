import { defineModifier } from '../types.js';
import { byteLength } from '../../value/bytes.js';
import { strArg } from '../../php/args.js';

export default defineModifier({
  kind: 'modifier',
  name: 'strlen',
  origin: 'php',
  summary: 'Length in bytes (a Japanese character counts 3).',
  params: [],
  examples: [{ template: '{$s|strlen}|{$j|strlen}', vars: { s: 'abc', j: '日本' }, output: '3|6' }],
  run(input) {
    return byteLength(strArg(input, 'strlen', 1));
  },
});
