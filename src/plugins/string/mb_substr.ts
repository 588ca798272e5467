import { defineModifier } from '../types.js';
import type { Value } from '../../value/value.js';
import { INT_MIN } from '../../value/int64.js';
import { int64Arg, optStrArg, strArg, valueError } from '../../php/args.js';
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
      offsetArg(start, 2, 'start'),
      length === null || length === undefined ? null : offsetArg(length, 3, 'length'),
    );
  },
});

/** PHP 8.2 refuses PHP_INT_MIN for start and length, which has no opposite (D328). */
function offsetArg(v: Value, pos: number, name: string): number {
  const i = int64Arg(v, 'mb_substr', pos, name);
  if (i === INT_MIN)
    throw valueError('mb_substr', pos, name, 'must be between -9223372036854775807 and 9223372036854775807');
  return Number(i);
}
