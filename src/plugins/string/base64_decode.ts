import { defineModifier } from '../types.js';
import { boolArg, strArg } from '../../php/args.js';
import { base64Decode } from '../../php/string/base64.js';

export default defineModifier({
  kind: 'modifier',
  name: 'base64_decode',
  origin: 'php',
  summary: 'Decodes Base64 (other characters skipped; with strict=true, false on bad input).',
  params: [{ name: 'strict', type: 'bool', default: false }],
  examples: [{ template: '{$s|base64_decode}', vars: { s: '5pel5pys' }, output: '日本' }],
  run(input, [strict]) {
    return base64Decode(strArg(input, 'base64_decode', 1), boolArg(strict, 'base64_decode', 2, 'strict'));
  },
});
