import { defineModifier } from '../types.js';
import { intArg, optStrArg, strArg } from '../../php/args.js';
import { checkMbEncoding, mbStripos } from '../../php/string/mb.js';

export default defineModifier({
  kind: 'modifier',
  name: 'mb_stripos',
  origin: 'php',
  summary: 'Character offset of the first occurrence of needle (case-insensitive), or false.',
  params: [
    { name: 'needle', type: 'string', required: true },
    { name: 'offset', type: 'int', default: 0 },
    { name: 'encoding', type: 'string', default: null },
  ],
  examples: [{ template: "{$s|mb_stripos:'d'}", vars: { s: '日本語Dｄ' }, output: '3' }],
  run(input, [needle, offset, enc]) {
    checkMbEncoding(optStrArg(enc, 'mb_stripos', 4, 'encoding'), 'mb_stripos', 4);
    return mbStripos(
      strArg(input, 'mb_stripos', 1, 'haystack'),
      strArg(needle, 'mb_stripos', 2, 'needle'),
      intArg(offset, 'mb_stripos', 3, 'offset'),
    );
  },
});
