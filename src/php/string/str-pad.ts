/** str_pad() on bytes, with PHP 8's errors. */
import { fromBinary, toBinary } from '../../value/bytes.js';
import { checkStringLength } from '../../value/limits.js';
import { valueError } from '../args.js';

const STR_PAD_LEFT = 0;
export const STR_PAD_RIGHT = 1;
const STR_PAD_BOTH = 2;

export function strPad(s: string, length: number, pad = ' ', type = STR_PAD_RIGHT): string {
  const bin = toBinary(s);
  const total = length - bin.length;
  if (total <= 0) return s;
  if (pad === '') throw valueError('str_pad', 3, 'pad_string', 'must be a non-empty string');
  if (type !== STR_PAD_LEFT && type !== STR_PAD_RIGHT && type !== STR_PAD_BOTH) {
    throw valueError('str_pad', 4, 'pad_type', 'must be STR_PAD_LEFT, STR_PAD_RIGHT, or STR_PAD_BOTH');
  }
  checkStringLength(length, 'str_pad');
  const padBin = toBinary(pad);
  const left = type === STR_PAD_LEFT ? total : type === STR_PAD_BOTH ? Math.floor(total / 2) : 0;
  const right = total - left;
  const fill = (n: number) => padBin.repeat(Math.ceil(n / padBin.length)).slice(0, n);
  return fromBinary(fill(left) + bin + fill(right));
}
