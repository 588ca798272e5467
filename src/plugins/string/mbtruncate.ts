import { defineModifier } from '../types.js';
import { intArg, strArg } from '../../php/args.js';
import { mbStrlen, mbSubstr } from '../../php/string/mb.js';

/**
 * The platform's mbtruncate (rcms_mbtruncate). Its source is not public; the reference says
 * only "multibyte-safe, never cuts inside a character". Defined here as: when the text has
 * more than `length` characters, its first `length` characters followed by etc (etc is not
 * counted, unlike mb_truncate; no word-boundary search).
 */
export default defineModifier({
  kind: 'modifier',
  name: 'mbtruncate',
  origin: 'platform',
  summary: 'Keeps the first length characters and appends etc when the text is longer.',
  params: [
    { name: 'length', type: 'int', default: 80 },
    { name: 'etc', type: 'string', default: '...' },
  ],
  examples: [
    {
      template: '{$s|mbtruncate:5}|{$t|mbtruncate:5}',
      vars: { s: '日本語のテキスト', t: '短い' },
      output: '日本語のテ...|短い',
    },
  ],
  run(input, [length, etc]) {
    const s = strArg(input, 'mb_strlen', 1);
    const n = intArg(length, 'mbtruncate', 2, 'length');
    return mbStrlen(s) > n ? mbSubstr(s, 0, Math.max(0, n)) + strArg(etc, 'mbtruncate', 3, 'etc') : s;
  },
});
