import { defineModifier } from '../types.js';
import { strArg } from '../../php/string/args.js';
import { mbStrlen, mbSubstr } from '../../php/string/mb.js';
import { truncateWith } from '../../php/string/truncate.js';

/** The platform's mb_truncate: Smarty's truncate algorithm with mb_strlen / mb_substr. */
export default defineModifier({
  kind: 'modifier',
  name: 'mb_truncate',
  origin: 'platform',
  summary: 'truncate counted in characters: never cuts a multibyte character.',
  params: [
    { name: 'length', type: 'int', default: 80 },
    { name: 'etc', type: 'string', default: '...' },
    { name: 'break_words', type: 'bool', default: false },
    { name: 'middle', type: 'bool', default: false },
  ],
  examples: [
    { template: '{$s|mb_truncate:8}', vars: { s: '日本語のテキストです' }, output: '日本語のテ...' },
    { template: "{$s|mb_truncate:5:'…':false:true}", vars: { s: '東京都千代田区丸の内' }, output: '東京…の内' },
  ],
  run(input, [length, etc, breakWords, middle]) {
    const s = strArg(input, 'mb_strlen', 1);
    const e = strArg(etc, 'mb_strlen', 1);
    return truncateWith({ len: mbStrlen, sub: (x, a, b) => mbSubstr(x, a, b ?? null) }, s, length, e, breakWords, middle) ?? input;
  },
});
