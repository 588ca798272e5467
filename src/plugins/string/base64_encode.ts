import { defineModifier } from '../types.js';
import { strArg } from '../../php/args.js';
import { base64Encode } from '../../php/string/base64.js';

export default defineModifier({
  kind: 'modifier',
  name: 'base64_encode',
  origin: 'php',
  summary: 'Base64 of the UTF-8 bytes.',
  params: [],
  examples: [{ template: '{$s|base64_encode}', vars: { s: '日本' }, output: '5pel5pys' }],
  run(input) {
    return base64Encode(strArg(input, 'base64_encode', 1));
  },
});
