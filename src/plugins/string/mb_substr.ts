import { defineModifier } from '../types.js';
import { intArg, optIntArg, optStrArg, strArg } from '../../php/args.js';
import { checkMbEncoding, mbSubstr } from '../../php/string/mb.js';

export default defineModifier({
  kind: 'modifier',
  name: 'mb_substr',
  origin: 'php',
  summary: 'Part of the string counted in characters; start and length may be negative.',
  params: [
    { name: 'start', type: 'int', required: true },
    { name: 'length', type: 'int', default: null },
    { name: 'encoding', type: 'string', default: null },
  ],
  examples: [{ template: '{$j|mb_substr:1:3}', vars: { j: '日本語のテキストです' }, output: '本語の' }],
  run(input, [start, length, enc]) {
    checkMbEncoding(optStrArg(enc, 'mb_substr', 4, 'encoding'), 'mb_substr', 4);
    return mbSubstr(
      strArg(input, 'mb_substr', 1),
      intArg(start, 'mb_substr', 2, 'start'),
      optIntArg(length, 'mb_substr', 3, 'length'),
    );
  },
});
