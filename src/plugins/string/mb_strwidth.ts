import { defineModifier } from '../types.js';
import { optStrArg, strArg } from '../../php/args.js';
import { checkMbEncoding, mbStrwidth } from '../../php/string/mb.js';

export default defineModifier({
  kind: 'modifier',
  name: 'mb_strwidth',
  origin: 'php',
  summary: 'Display width: East Asian wide and fullwidth characters count 2.',
  params: [{ name: 'encoding', type: 'string', default: null }],
  examples: [{ template: '{$s|mb_strwidth}', vars: { s: '日本ｱｲabc' }, output: '9' }],
  run(input, [enc]) {
    checkMbEncoding(optStrArg(enc, 'mb_strwidth', 2, 'encoding'), 'mb_strwidth', 2);
    return mbStrwidth(strArg(input, 'mb_strwidth', 1));
  },
});
