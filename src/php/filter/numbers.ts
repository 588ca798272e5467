/**
 * FILTER_VALIDATE_INT, FILTER_VALIDATE_BOOL and FILTER_VALIDATE_FLOAT, transcribed from
 * PHP 8.2's ext/filter/logical_filters.c (php_filter_int, php_filter_boolean,
 * php_filter_float). Integers are checked as 64-bit values with bigint.
 */
import { float } from '../../value/value.js';
import { INT_MAX as LONG_MAX, INT_MIN as LONG_MIN, int64OfDecimal, intOf } from '../../value/int64.js';
import { FILTER_FLAG_ALLOW_HEX, FILTER_FLAG_ALLOW_OCTAL, FILTER_FLAG_ALLOW_THOUSAND } from './constants.js';
import {
  FAILED,
  type FilterInput,
  type Filtered,
  doubleOption,
  filterTrim,
  filterValueError,
  longOption,
  stringOption,
} from './options.js';

const ULONG_MAX = (1n << 64n) - 1n;
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** php_filter_parse_int: decimal without leading zeros, 64-bit overflow is a failure. */
function parseDecimal(s: string): bigint | null {
  let i = 0;
  const negative = s[0] === '-';
  if (s[0] === '-' || s[0] === '+') i++;
  if (s[i] === '0' && i + 1 === s.length) return 0n; // "+0" and "-0"
  if (!(s[i] >= '1' && s[i] <= '9')) return null;
  // MAX_LENGTH_OF_LONG - 1 digits may follow the first one.
  if (s.length - i - 1 > 19) return null;
  for (let j = i; j < s.length; j++) if (!isDigit(s[j])) return null;
  const v = BigInt(s.slice(i)) * (negative ? -1n : 1n);
  return v > LONG_MAX || v < LONG_MIN ? null : v;
}

/** Most significant digits an unsigned 64-bit value has in base 8 / 16. */
const ULONG_DIGITS = { 8: 22, 16: 16 };

/** php_filter_parse_octal / _hex: unsigned 64-bit, then read as a signed long. */
function parseRadix(s: string, radix: 8 | 16): bigint | null {
  const digit = radix === 8 ? /^[0-7]*$/ : /^[0-9a-fA-F]*$/;
  if (!digit.test(s)) return null;
  // leading zeros dropped and the rest counted before BigInt() sees any of it (HH-08)
  const significant = s.replace(/^0+/, '');
  if (significant === '') return 0n;
  if (significant.length > ULONG_DIGITS[radix]) return null;
  const v = BigInt((radix === 8 ? '0o' : '0x') + significant);
  return v > ULONG_MAX ? null : BigInt.asIntN(64, v);
}

export function validateInt(input: FilterInput): Filtered {
  const min = longOption(input, 'min_range');
  const max = longOption(input, 'max_range');
  if (input.bin === '') return FAILED;
  const p = filterTrim(input.bin);
  if (p === '') return FAILED;
  let value: bigint | null;
  if (p[0] === '0') {
    let rest = p.slice(1);
    if (input.flags & FILTER_FLAG_ALLOW_HEX && (rest[0] === 'x' || rest[0] === 'X')) {
      rest = rest.slice(1);
      if (rest === '') return FAILED;
      value = parseRadix(rest, 16);
    } else if (input.flags & FILTER_FLAG_ALLOW_OCTAL) {
      if (rest[0] === 'o' || rest[0] === 'O') {
        rest = rest.slice(1);
        if (rest === '') return FAILED;
      }
      value = parseRadix(rest, 8);
    } else {
      value = rest === '' ? 0n : null;
    }
  } else {
    value = parseDecimal(p);
  }
  if (value === null || (min !== undefined && value < min) || (max !== undefined && value > max)) return FAILED;
  return intOf(value);
}

const BOOLEANS: Record<string, boolean> = {
  '1': true,
  on: true,
  yes: true,
  true: true,
  '0': false,
  no: false,
  off: false,
  false: false,
  '': false,
};

export function validateBool(input: FilterInput): Filtered {
  const s = filterTrim(input.bin).toLowerCase();
  return Object.prototype.hasOwnProperty.call(BOOLEANS, s) ? BOOLEANS[s] : FAILED;
}

const NUMERIC = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

export function validateFloat(input: FilterInput): Filtered {
  const str = filterTrim(input.bin);
  if (str === '') return FAILED;
  const decimal = stringOption(input, 'decimal');
  if (decimal !== undefined && decimal.length !== 1)
    throw filterValueError('"decimal" option must be one character long');
  const decSep = decimal ?? '.';
  const thousand = stringOption(input, 'thousand');
  if (thousand === '') throw filterValueError('"thousand" option must not be empty');
  // strchr() also finds the string's terminating NUL, so a NUL byte always counts as a separator.
  const thousandSeps = (thousand ?? "',.") + '\0';
  const min = doubleOption(input, 'min_range');
  const max = doubleOption(input, 'max_range');

  // Copies the number into `num` without its thousand separators, as php_filter_float does.
  let i = 0;
  let num = '';
  if (str[0] === '+' || str[0] === '-') num += str[i++];
  let first = true;
  for (;;) {
    // digit runs are copied as slices: one concatenation per character took seconds for 16M digits
    const start = i;
    while (isDigit(str[i])) i++;
    const n = i - start;
    num += str.slice(start, i);
    if (i === str.length || str[i] === decSep || str[i] === 'e' || str[i] === 'E') {
      if (!first && n !== 3) return FAILED;
      if (str[i] === decSep && i < str.length) {
        num += '.';
        const from = ++i;
        while (isDigit(str[i])) i++;
        num += str.slice(from, i);
      }
      if (str[i] === 'e' || str[i] === 'E') {
        num += str[i++];
        if (str[i] === '+' || str[i] === '-') num += str[i++];
        const from = i;
        while (isDigit(str[i])) i++;
        num += str.slice(from, i);
      }
      break;
    }
    if (input.flags & FILTER_FLAG_ALLOW_THOUSAND && thousandSeps.includes(str[i])) {
      if (first ? n < 1 || n > 3 : n !== 3) return FAILED;
      first = false;
      i++;
    } else {
      return FAILED;
    }
  }
  if (i !== str.length || !NUMERIC.test(num)) return FAILED;

  const isLong = /^[+-]?[0-9]+$/.test(num) && int64OfDecimal(num) !== null;
  // (double) of a long is never -0.0; a double that rounds to zero from non-zero digits fails.
  const d = isLong ? Number(num) + 0 : Number(num);
  if (!isLong && ((d === 0 && num.length > 1 && /[1-9]/.test(num)) || !Number.isFinite(d))) return FAILED;
  if ((min !== undefined && d < min) || (max !== undefined && d > max)) return FAILED;
  return float(d);
}
