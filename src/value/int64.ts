/**
 * PHP's 64-bit integers (docs/decisions.md D69). An int is a JavaScript `number` while it is a
 * safe integer (|n| <= 2^53 - 1) and a `bigint` only beyond, up to PHP_INT_MAX / PHP_INT_MIN:
 * nearly every int a template sees is small, and plain number arithmetic is what V8 makes fast.
 * Each int has exactly one form (a bigint is never within the safe range), so `===` and Map
 * keys tell ints apart as PHP does.
 */

/** A PHP int: a safe-integer number, or a bigint beyond 2^53 within 64 bits. */
export type PhpInt = number | bigint;

/** PHP_INT_MAX and PHP_INT_MIN. */
export const INT_MAX = (1n << 63n) - 1n;
export const INT_MIN = -(1n << 63n);

const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);

/** 2^53: an integral number of this magnitude or more is an int only as a bigint. */
export const TWO_53 = 2 ** 53;

/** A bigint within 64 bits in its one form: a number when it is safe. */
export function intOf(b: bigint): PhpInt {
  return b <= SAFE_MAX && b >= -SAFE_MAX ? Number(b) : b;
}

/** Whether a bigint is within PHP's int range. */
export function fitsInt64(b: bigint): boolean {
  return b >= INT_MIN && b <= INT_MAX;
}

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
  return fitsInt64(signed) ? signed : null;
}

/** Decimal integer text as a PHP int, or null outside int64 (where PHP reads a float). */
export function intOfDecimal(text: string): PhpInt | null {
  // Up to 15 digits a double holds the value exactly: no bigint needed.
  if (text.length <= 15) return Number(text) || 0;
  const b = int64OfDecimal(text);
  return b === null ? null : intOf(b);
}

const TWO_63 = 2 ** 63;

/**
 * zend_dval_to_lval, PHP's (int) of a float: NAN and INF are 0, a float outside 64 bits wraps
 * modulo 2^64 (`(int)1e20` is 7766279631452241920), anything else loses its fraction.
 */
export function floatToInt(d: number): PhpInt {
  if (!Number.isFinite(d)) return 0;
  if (d >= -TWO_63 && d < TWO_63) {
    const t = Math.trunc(d);
    return Number.isSafeInteger(t) ? t || 0 : BigInt(t);
  }
  return intOf(BigInt.asIntN(64, BigInt(d)));
}

/** zend_dval_to_lval_cap, for numeric strings that overflow: saturates at PHP_INT_MAX / MIN. */
export function floatToIntCapped(d: number): PhpInt {
  if (!Number.isFinite(d)) return 0;
  if (d >= -TWO_63 && d < TWO_63) return floatToInt(d);
  return d > 0 ? INT_MAX : INT_MIN;
}

/** An int as a bigint (for arithmetic that must not round). */
export function bigOf(n: PhpInt): bigint {
  return typeof n === 'bigint' ? n : BigInt(n);
}

/**
 * The int at fraction `unit` (0 <= unit < 1) of [min, max], at any width: a random draw's int,
 * exact also where the span passes 2^53 (mt_rand(0, PHP_INT_MAX)).
 */
export function intInRange(min: PhpInt, max: PhpInt, unit: number): PhpInt {
  if (typeof min === 'number' && typeof max === 'number') {
    const span = max - min + 1;
    if (Number.isSafeInteger(span)) return min + Math.floor(unit * span);
  }
  const low = bigOf(min);
  const span = bigOf(max) - low + 1n;
  const offset = BigInt(Math.floor(unit * Number(span)));
  return intOf(low + (offset < span ? offset : span - 1n));
}
