import { defineModifier } from '../types.js';
import { optStrArg, strArg } from '../../php/args.js';
import { checkMbEncoding, mbStrlen } from '../../php/string/mb.js';

export default defineModifier({
  kind: 'modifier',
  name: 'mb_strlen',
  origin: 'php',
  summary: 'Number of characters (UTF-8).',
  params: [{ name: 'encoding', type: 'string', default: null }],
  examples: [{ template: '{$s|mb_strlen}', vars: { s: '日本語abc😀' }, output: '7' }],
  run(input, [enc]) {
    checkMbEncoding(optStrArg(enc, 'mb_strlen', 2, 'encoding'), 'mb_strlen', 2);
    return mbStrlen(strArg(input, 'mb_strlen', 1));
  },
});
