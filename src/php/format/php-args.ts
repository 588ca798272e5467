/**
 * How PHP 8.2 turns values into the C types its functions work with: zval_get_long /
 * zval_get_double (used inside sprintf, intval, floatval: never fail) and the coercive
 * parameter parsing of internal functions (int|float, float, int parameters: non-numeric
 * strings and arrays are a TypeError).
 *
 * Integers are returned as bigint where they may exceed 2^53 (sprintf's %d/%u/%x need every
 * bit of a 64-bit value).
 */
import { PhpArray, PhpFloat, PhpObject, type Value } from '../../runtime/value.js';
import { PhpTypeError, toStr } from '../../runtime/convert.js';

export const LONG_MAX = (1n << 63n) - 1n;
export const LONG_MIN = -(1n << 63n);

const WS = '[ \\t\\n\\r\\v\\f]*';
const INT_PREFIX = new RegExp(`^${WS}([+-]?[0-9]+)(?![0-9.eE])`);
const NUM_PREFIX = new RegExp(`^${WS}[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?`);
const NUMERIC_FULL = new RegExp(`^${WS}[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?${WS}$`);
const INTEGRAL_FULL = new RegExp(`^${WS}[+-]?[0-9]+${WS}$`);

/** zend_dval_to_lval: NaN/INF → 0, out of range → modular (64-bit wrap), else truncation. */
export function dvalToLval(d: number): bigint {
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
    const b = BigInt(im[1]);
    // An integer literal that overflows is read as a double, then capped.
    if (b <= LONG_MAX && b >= LONG_MIN) return b;
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

/** A PHP int as a JS number (ints beyond 2^53 lose their low bits, as the value model does). */
export function longToNumber(b: bigint): number {
  return Number(b);
}

function typeName(v: Value): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (v instanceof PhpFloat) return 'float';
  if (v instanceof PhpArray) return 'array';
  return 'stdClass';
}

function argError(fn: string, pos: number, name: string, type: string, v: Value): PhpTypeError {
  return new PhpTypeError(`${fn}(): Argument #${pos} ($${name}) must be of type ${type}, ${typeName(v)} given`);
}

/** A numeric string as int (number) or float (PhpFloat when integral), PHP's rules. */
function numericString(s: string): number | PhpFloat | undefined {
  if (INTEGRAL_FULL.test(s)) {
    const b = BigInt(s.trim());
    if (b <= LONG_MAX && b >= LONG_MIN) return Number(b);
    return new PhpFloat(Number(s.trim()));
  }
  if (NUMERIC_FULL.test(s)) {
    const n = Number(s.trim());
    return Number.isInteger(n) ? new PhpFloat(n) : n;
  }
  return undefined;
}

export interface ArgNotes {
  warn?: (message: string) => void;
}

/**
 * An `int|float` parameter (Z_PARAM_NUMBER): ints stay ints, numeric strings convert (null
 * is 0, a deprecation in 8.1+), other strings and arrays are a TypeError.
 */
export function numberParam(v: Value, fn: string, pos: number, name: string, _notes: ArgNotes = {}): number | PhpFloat {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' || v instanceof PhpFloat) return v;
  if (typeof v === 'string') {
    // Leading-numeric strings ("12abc") are a TypeError for parameters, unlike arithmetic.
    const n = numericString(v);
    if (n !== undefined) return n;
  }
  throw argError(fn, pos, name, 'int|float', v);
}

/** A `float` parameter (Z_PARAM_DOUBLE). */
export function floatParam(v: Value, fn: string, pos: number, name: string, notes: ArgNotes = {}): number {
  const n = numberParam(v, fn, pos, name, notes);
  return typeof n === 'number' ? n : n.value;
}

/**
 * An `int` parameter (Z_PARAM_LONG): floats with a fraction are truncated (a deprecation in
 * 8.1+), floats outside the int range, NaN and INF are a TypeError.
 */
export function intParam(v: Value, fn: string, pos: number, name: string, notes: ArgNotes = {}): number {
  let n: number | PhpFloat;
  try {
    n = numberParam(v, fn, pos, name, notes);
  } catch {
    throw argError(fn, pos, name, 'int', v);
  }
  const d = typeof n === 'number' ? n : n.value;
  if (Number.isInteger(d) && !(n instanceof PhpFloat)) return d;
  if (!Number.isFinite(d) || d < -(2 ** 63) || d >= 2 ** 63) throw argError(fn, pos, name, 'int', v);
  return Math.trunc(d);
}

/** A `?string` parameter: scalars convert, arrays and objects are a TypeError. */
export function stringParam(v: Value, fn: string, pos: number, name: string): string {
  if (v instanceof PhpArray || v instanceof PhpObject) throw argError(fn, pos, name, 'string', v);
  return toStr(v);
}
