import { defineModifier } from '../types.js';
import { byteLength, byteSubstr } from '../../runtime/bytes.js';
import { strArg } from '../../php/string/args.js';
import { truncateWith } from '../../php/string/truncate.js';

/** Smarty 2.6 truncate: byte-based, so a multibyte character may be cut (see truncate.ts). */
export default defineModifier({
  kind: 'modifier',
  name: 'truncate',
  origin: 'smarty',
  summary: 'Shortens to length bytes including etc, at a word boundary unless break_words.',
  params: [
    { name: 'length', type: 'int', default: 80 },
    { name: 'etc', type: 'string', default: '...' },
    { name: 'break_words', type: 'bool', default: false },
    { name: 'middle', type: 'bool', default: false },
  ],
  examples: [
    { template: '{$s|truncate:30}', vars: { s: 'Three Friends Meet Again after Twenty Winters in Town' }, output: 'Three Friends Meet Again...' },
    { template: "{$s|truncate:30:'...':true:true}", vars: { s: 'Three Friends Meet Again after Twenty Winters in Town' }, output: 'Three Friends...nters in Town' },
  ],
  run(input, [length, etc, breakWords, middle]) {
    const s = strArg(input, 'strlen', 1);
    const e = strArg(etc, 'strlen', 1);
    return truncateWith({ len: byteLength, sub: byteSubstr }, s, length, e, breakWords, middle) ?? input;
  },
});
