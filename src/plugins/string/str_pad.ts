import { defineModifier } from '../types.js';
import { intArg, strArg } from '../../php/args.js';
import { STR_PAD_RIGHT, strPad } from '../../php/string/str-pad.js';

/** PHP str_pad on bytes; pad_type is $smarty.const.STR_PAD_LEFT (0), RIGHT (1) or BOTH (2). */
export default defineModifier({
  kind: 'modifier',
  name: 'str_pad',
  origin: 'php',
  summary: 'Pads to length bytes with pad_string, on the right, left or both sides.',
  params: [
    { name: 'length', type: 'int', required: true },
    { name: 'pad_string', type: 'string', default: ' ' },
    { name: 'pad_type', type: 'int', default: STR_PAD_RIGHT },
  ],
  examples: [
    {
      template: "[{$s|str_pad:8:'*'}][{$s|str_pad:9:'-':$smarty.const.STR_PAD_BOTH}]",
      vars: { s: 'abc' },
      output: '[abc*****][---abc---]',
    },
  ],
  run(input, [length, pad, type]) {
    return strPad(
      strArg(input, 'str_pad', 1),
      intArg(length, 'str_pad', 2, 'length'),
      strArg(pad, 'str_pad', 3, 'pad_string'),
      intArg(type, 'str_pad', 4, 'pad_type'),
    );
  },
});
