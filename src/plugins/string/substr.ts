import { defineModifier } from '../types.js';
import { toStr } from '../../value/convert.js';
import { byteSubstr } from '../../value/bytes.js';
import { intArg, isScalarOrNull, optIntArg } from '../../php/args.js';

/** The platform's substr: PHP substr on bytes (a character may be cut); '' for arrays and objects. */
export default defineModifier({
  kind: 'modifier',
  name: 'substr',
  origin: 'platform',
  summary: 'Part of the string, in bytes; start and length may be negative.',
  params: [
    { name: 'offset', type: 'int', required: true },
    { name: 'length', type: 'int', default: null },
  ],
  examples: [
    {
      template: '{$s|substr:0:3}|{$s|substr:-3}|{$j|substr:3:6}',
      vars: { s: 'abcdefg', j: '日本語' },
      output: 'abc|efg|本語',
    },
  ],
  run(input, [offset, length]) {
    if (!isScalarOrNull(input)) return '';
    return byteSubstr(toStr(input), intArg(offset, 'substr', 2, 'offset'), optIntArg(length, 'substr', 3, 'length'));
  },
});
