/**
 * PHP 8's parameter parsing for internal functions: what a string, int, float, int|float,
 * bool or array parameter accepts, what it turns the value into, and the TypeError or
 * ValueError PHP raises otherwise, worded as PHP words it.
 *
 * Only coercive mode applies: a template calls PHP functions the way a file without
 * `declare(strict_types=1)` does. So scalars convert between each other, null to a scalar
 * parameter still converts (a deprecation since 8.1), a float losing its fraction to an int
 * parameter still converts (a deprecation), and numeric strings count as numbers while
 * leading-numeric ones ("12abc") do not. Errors are PhpTypeError: the runtime turns them into
 * null plus a warning.
 *
 * Conversions that never fail, used inside functions (zval_get_long...), are in zval.ts.
 */
import {
  PhpArray,
  PhpFloat,
  PhpObject,
  type PhpInt,
  type PhpNumber,
  type Value,
  float,
  isInt,
} from '../value/value.js';
import { PhpTypeError, isNumericStr, toBool, toStr } from '../value/convert.js';
import { intOfDecimal } from '../value/int64.js';

/** PHP's name of a value's type in TypeError messages. */
export function typeName(v: Value): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return isInt(v) ? 'int' : 'float';
  if (typeof v === 'bigint') return 'int';
  if (v instanceof PhpFloat) return 'float';
  if (v instanceof PhpArray) return 'array';
  return 'stdClass';
}

/** `fn(): Argument #pos ($name) must be of type want, <type> given`. */
export function typeError(fn: string, pos: number, name: string, want: string, v: Value): PhpTypeError {
  return new PhpTypeError(`${fn}(): Argument #${pos} ($${name}) must be of type ${want}, ${typeName(v)} given`);
}

/** A ValueError for a parameter, e.g. valueError('str_pad', 3, 'pad_string', 'must be a non-empty string'). */
export function valueError(fn: string, pos: number, name: string, message: string): PhpTypeError {
  return new PhpTypeError(`${fn}(): Argument #${pos} ($${name}) ${message}`);
}

/** True for null, booleans, numbers and strings (PHP is_scalar plus null). */
export function isScalarOrNull(v: Value): boolean {
  return v === null || v === undefined || typeof v !== 'object' || v instanceof PhpFloat;
}

/** An `array` parameter: nothing converts to an array. */
export function arrayArg(v: Value, fn: string, pos: number, name = 'array'): PhpArray {
  if (v instanceof PhpArray) return v;
  throw typeError(fn, pos, name, 'array', v);
}

/** A `string` parameter: scalars convert as echo does, arrays and objects are a TypeError. */
export function strArg(v: Value, fn: string, pos: number, name = 'string'): string {
  if (v instanceof PhpArray || v instanceof PhpObject) throw typeError(fn, pos, name, 'string', v);
  return toStr(v);
}

/** A `?string` parameter: null stays null. */
export function optStrArg(v: Value, fn: string, pos: number, name: string): string | null {
  return v === null || v === undefined ? null : strArg(v, fn, pos, name);
}

/** A `bool` parameter: scalars by truthiness (NAN is true), arrays and objects are a TypeError. */
export function boolArg(v: Value, fn: string, pos: number, name: string): boolean {
  if (v instanceof PhpArray || v instanceof PhpObject) throw typeError(fn, pos, name, 'bool', v);
  return toBool(v);
}

const INTEGRAL = /^[ \t\n\r\v\f]*[+-]?[0-9]+[ \t\n\r\v\f]*$/;

/**
 * An integral numeric string within PHP's 64-bit range, as an int. Checked on the digits, not
 * on the rounded double, so "9223372036854775807" is an int and "9223372036854775808" is not.
 */
function intString(s: string): PhpInt | undefined {
  if (!INTEGRAL.test(s)) return undefined;
  return intOfDecimal(s.trim()) ?? undefined;
}

/** An `int|float` parameter: ints stay ints, numeric strings become ints or floats. */
export function numberArg(v: Value, fn: string, pos: number, name: string): PhpNumber {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' || typeof v === 'bigint' || v instanceof PhpFloat) return v;
  if (typeof v === 'string') {
    const i = intString(v);
    if (i !== undefined) return i;
    if (isNumericStr(v)) return float(Number(v.trim()));
  }
  throw typeError(fn, pos, name, 'int|float', v);
}

/** A `float` parameter. */
export function floatArg(v: Value, fn: string, pos: number, name: string): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (v instanceof PhpFloat) return v.value;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && isNumericStr(v)) return Number(v.trim());
  throw typeError(fn, pos, name, 'float', v);
}

/**
 * An `int` parameter, exact: a float (or float string) converts when it fits in 64 bits, its
 * fraction dropped; NAN, INF and floats out of range are a TypeError.
 */
export function int64Arg(v: Value, fn: string, pos: number, name: string): PhpInt {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (isInt(v)) return v;
  if (typeof v === 'string') {
    const i = intString(v);
    if (i !== undefined) return i;
  }
  const d =
    typeof v === 'number'
      ? v
      : v instanceof PhpFloat
        ? v.value
        : typeof v === 'string' && isNumericStr(v)
          ? Number(v.trim())
          : NaN;
  if (!(d >= -(2 ** 63) && d < 2 ** 63)) throw typeError(fn, pos, name, 'int', v);
  const t = Math.trunc(d);
  return Number.isSafeInteger(t) ? t || 0 : BigInt(t);
}

/**
 * An `int` parameter as a double, for counts, lengths and offsets (where an int past 2^53 acts
 * as its nearest double would: past every bound).
 */
export function intArg(v: Value, fn: string, pos: number, name: string): number {
  const i = int64Arg(v, fn, pos, name);
  return typeof i === 'number' ? i : Number(i);
}

/**
 * An int parameter PHP passes on as a C `int` (flags tested bit by bit, strtol's base): its low
 * 32 bits, signed. intArg's double would lose them past 2^53, so PHP_INT_MAX, all bits set,
 * read as no flags at all (docs/decisions.md D327).
 */
export function int32Arg(v: Value, fn: string, pos: number, name: string): number {
  return low32(int64Arg(v, fn, pos, name));
}

/** A PHP int as C's `int` takes it: its low 32 bits, signed. */
export function low32(i: PhpInt): number {
  return typeof i === 'bigint' ? Number(BigInt.asIntN(32, i)) : i | 0;
}

/** A `?int` parameter: null stays null. */
export function optIntArg(v: Value, fn: string, pos: number, name: string): number | null {
  return v === null || v === undefined ? null : intArg(v, fn, pos, name);
}
