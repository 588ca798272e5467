import { defineModifier } from '../types.js';
import { mbStrlen, mbSubstr } from '../../php/string/mb.js';
import { truncateParams, truncateModifier } from './truncate-shared.js';

/** The platform's mb_truncate: Smarty's truncate algorithm with mb_strlen / mb_substr. */
export default defineModifier({
  kind: 'modifier',
  name: 'mb_truncate',
  origin: 'platform',
  summary: 'truncate counted in characters: never cuts a multibyte character.',
  params: truncateParams,
  examples: [
    { template: '{$s|mb_truncate:8}', vars: { s: '日本語のテキストです' }, output: '日本語のテ...' },
    { template: "{$s|mb_truncate:5:'…':false:true}", vars: { s: '東京都千代田区丸の内' }, output: '東京…の内' },
  ],
  ...truncateModifier({ len: mbStrlen, sub: (x, a, b) => mbSubstr(x, a, b ?? null) }, 'mb_strlen'),
});
