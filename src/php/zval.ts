/**
 * How PHP 8.2 turns values into the C types its functions work with once they hold them:
 * zval_get_long / zval_get_double / zval_get_string (used inside sprintf, intval, floatval,
 * filter_var...). Unlike parameter parsing (args.ts) these never fail on a type.
 *
 * Integers are returned as bigint where they may exceed 2^53 (sprintf's %d/%u/%x need every
 * bit of a 64-bit value).
 */
import { PhpArray, PhpFloat, PhpObject, type Value } from '../value/value.js';
import { PhpTypeError, toStr } from '../value/convert.js';

export const LONG_MAX = (1n << 63n) - 1n;
export const LONG_MIN = -(1n << 63n);

/**
 * Decimal integer text (`[+-]?[0-9]+`) as an int64, or null when its value lies outside int64.
 * BigInt() gets at most 20 characters: parsing a template's 16-million-digit string takes
 * seconds of native work that the isolate's CPU timeout cannot interrupt, and past 19
 * significant digits the value is out of range whatever the digits are.
 */
export function int64OfDecimal(text: string): bigint | null {
  const sign = text.charCodeAt(0) === 0x2d || text.charCodeAt(0) === 0x2b ? 1 : 0;
  let i = sign;
  while (i < text.length - 1 && text.charCodeAt(i) === 0x30) i++;
  if (text.length - i > 19) return null;
  const v = BigInt(text.slice(i));
  const signed = text.charCodeAt(0) === 0x2d ? -v : v;
  return signed >= LONG_MIN && signed <= LONG_MAX ? signed : null;
}

const WS = '[ \\t\\n\\r\\v\\f]*';
const INT_PREFIX = new RegExp(`^${WS}([+-]?[0-9]+)(?![0-9.eE])`);
const NUM_PREFIX = new RegExp(`^${WS}[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?`);

/** zend_dval_to_lval: NaN/INF → 0, out of range → modular (64-bit wrap), else truncation. */
function dvalToLval(d: number): bigint {
  if (!Number.isFinite(d)) return 0n;
  if (d >= -(2 ** 63) && d < 2 ** 63) return BigInt(Math.trunc(d));
  return BigInt.asIntN(64, BigInt(d));
}

/** zend_dval_to_lval_cap: used for numeric strings that overflow: saturates. */
function dvalToLvalCap(d: number): bigint {
  if (!Number.isFinite(d)) return 0n;
  if (d >= -(2 ** 63) && d < 2 ** 63) return BigInt(Math.trunc(d));
  return d > 0 ? LONG_MAX : LONG_MIN;
}

/** The leading number of a string as PHP's is_numeric_string (allow_errors) reads it. */
function stringToLong(s: string): bigint {
  const m = NUM_PREFIX.exec(s);
  if (!m) return 0n;
  const im = INT_PREFIX.exec(s);
  if (im) {
    const b = int64OfDecimal(im[1]);
    // An integer literal that overflows is read as a double, then capped.
    if (b !== null) return b;
  }
  return dvalToLvalCap(Number(m[0].trim()));
}

/** zval_get_long(), as a 64-bit bigint. */
export function zvalGetLong(v: Value): bigint {
  if (v === null || v === undefined) return 0n;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? BigInt(v) : dvalToLval(v);
  if (v instanceof PhpFloat) return dvalToLval(v.value);
  if (typeof v === 'string') return stringToLong(v);
  if (v instanceof PhpArray) return v.size > 0 ? 1n : 0n;
  return 1n;
}

/** zval_get_double(). */
export function zvalGetDouble(v: Value): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (v instanceof PhpFloat) return v.value;
  if (typeof v === 'string') {
    const m = NUM_PREFIX.exec(v);
    return m ? Number(m[0].trim()) : 0;
  }
  if (v instanceof PhpArray) return v.size > 0 ? 1 : 0;
  return 1;
}

/** zval_get_string(): like echo, but objects without __toString are an Error. */
export function zvalGetString(v: Value): string {
  if (v instanceof PhpObject) throw new PhpTypeError('Object of class stdClass could not be converted to string');
  return toStr(v);
}
