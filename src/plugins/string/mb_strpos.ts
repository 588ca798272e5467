import { defineModifier } from '../types.js';
import { intArg, optStrArg, strArg } from '../../php/args.js';
import { checkMbEncoding, mbStrpos } from '../../php/string/mb.js';

export default defineModifier({
  kind: 'modifier',
  name: 'mb_strpos',
  origin: 'php',
  summary: 'Character offset of the first occurrence of needle, or false.',
  params: [
    { name: 'needle', type: 'string', required: true },
    { name: 'offset', type: 'int', default: 0 },
    { name: 'encoding', type: 'string', default: null },
  ],
  examples: [{ template: "{$s|mb_strpos:'D'}", vars: { s: '日本語Dｄ' }, output: '3' }],
  run(input, [needle, offset, enc]) {
    checkMbEncoding(optStrArg(enc, 'mb_strpos', 4, 'encoding'), 'mb_strpos', 4);
    return mbStrpos(
      strArg(input, 'mb_strpos', 1, 'haystack'),
      strArg(needle, 'mb_strpos', 2, 'needle'),
      intArg(offset, 'mb_strpos', 3, 'offset'),
    );
  },
});
