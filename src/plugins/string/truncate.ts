import { defineModifier } from '../types.js';
import { byteLength, byteSubstr } from '../../value/bytes.js';
import { truncateParams, truncateModifier } from './truncate-shared.js';

/** Smarty 2.6 truncate: byte-based, so a multibyte character may be cut (see truncate.ts). */
export default defineModifier({
  kind: 'modifier',
  name: 'truncate',
  origin: 'smarty',
  summary: 'Shortens to length bytes including etc, at a word boundary unless break_words.',
  params: truncateParams,
  examples: [
    {
      template: '{$s|truncate:30}',
      vars: { s: 'Three Friends Meet Again after Twenty Winters in Town' },
      output: 'Three Friends Meet Again...',
    },
    {
      template: "{$s|truncate:30:'...':true:true}",
      vars: { s: 'Three Friends Meet Again after Twenty Winters in Town' },
      output: 'Three Friends...nters in Town',
    },
  ],
  ...truncateModifier({ len: byteLength, sub: byteSubstr, countsBytes: true }, 'strlen'),
});
