/** PHP 8 type juggling: to string, to number, to bool, numeric strings. */
import { PhpArray, PhpFloat, PhpObject, type PhpNumber, type Value, float } from './value.js';
import { type PhpInt, floatToInt, floatToIntCapped, intOfDecimal } from './int64.js';
import { formatFloat } from './float-format.js';

/** PHP string conversion as echo does it. Arrays print "Array"; objects "Object". */
export function toStr(v: Value): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      return Number.isSafeInteger(v) ? String(v) : formatFloat(v);
    case 'boolean':
      return v ? '1' : '';
    case 'object':
      if (v === null) return '';
      if (v instanceof PhpFloat) return formatFloat(v.value);
      if (v instanceof PhpArray) return 'Array';
      return 'Object';
    default:
      // An int past 2^53 (undefined is null).
      return typeof v === 'bigint' ? v.toString() : '';
  }
}

/** PHP truthiness. */
export function toBool(v: Value): boolean {
  if (v === null || v === undefined) return false;
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'number':
      return v !== 0; // NAN is true in PHP
    case 'string':
      return v !== '' && v !== '0';
    default:
      break; // objects and the rest: below
  }
  if (v instanceof PhpFloat) return v.value !== 0;
  if (v instanceof PhpArray) return v.size > 0;
  // A stdClass object, or an int past 2^53 (never 0).
  return true;
}

// PHP 8 numeric string: optional leading and trailing whitespace around a decimal number.
const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t\n\r\v\f]*$/;
const LEADING_NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/;
// The integer part of a leading number that has no fraction or exponent after it.
const LEADING_INTEGER = /^[ \t\n\r\v\f]*([+-]?[0-9]+)(?![0-9.eE])/;
const INTEGRAL = /^[ \t\n\r\v\f]*[+-]?[0-9]+[ \t\n\r\v\f]*$/;

export function isNumericStr(s: string): boolean {
  return NUMERIC.test(s);
}

/** PHP is_numeric() */
export function isNumeric(v: Value): boolean {
  if (typeof v === 'number' || typeof v === 'bigint' || v instanceof PhpFloat) return true;
  return typeof v === 'string' && NUMERIC.test(v);
}

/**
 * A numeric string as int or float: PHP keeps "12" an int and "1.0"/"1e3" floats, and an
 * integer string outside 64 bits is a float ("9223372036854775808").
 */
function parseNumericStr(s: string): PhpNumber {
  const t = s.trim();
  if (INTEGRAL.test(s)) {
    const i = intOfDecimal(t);
    if (i !== null) return i;
  }
  return float(Number(t));
}

/**
 * A numeric string as is_numeric_string_ex reads it for comparisons: its value, and `oflow`,
 * the side (1 or -1) to which an integer string overflowed 64 bits (then a float), else 0.
 * Null when the string is not numeric.
 */
export function numericStr(s: string): { n: PhpNumber; oflow: number } | null {
  if (!NUMERIC.test(s)) return null;
  const n = parseNumericStr(s);
  const oflow = n instanceof PhpFloat && INTEGRAL.test(s) ? (s.trim().startsWith('-') ? -1 : 1) : 0;
  return { n, oflow };
}

export class PhpTypeError extends Error {}

/**
 * The number an arithmetic operand becomes (PHP 8): numeric strings convert, leading-numeric
 * strings use their prefix, null/false are 0, true is 1; other strings and arrays throw.
 */
export function toNumber(v: Value, op = '+'): PhpNumber {
  switch (typeof v) {
    case 'number':
    case 'bigint':
      return v;
    case 'boolean':
      return v ? 1 : 0;
    case 'string': {
      if (NUMERIC.test(v)) return parseNumericStr(v);
      const m = LEADING_NUMERIC.exec(v);
      if (m) return parseNumericStr(m[0]);
      throw new PhpTypeError(`Unsupported operand types: string ${op} number ("${v.slice(0, 40)}" is not numeric)`);
    }
    default:
      break; // objects and the rest: below
  }
  if (v === null || v === undefined) return 0;
  if (v instanceof PhpFloat) return v;
  throw new PhpTypeError(`Unsupported operand types: ${v instanceof PhpArray ? 'array' : 'object'} ${op} number`);
}

/** A lenient number for modifiers and attributes: never throws, like PHP's (float) cast. */
export function toFloatLoose(v: Value): number {
  if (typeof v === 'number') return v;
  if (v instanceof PhpFloat) return v.value;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const m = LEADING_NUMERIC.exec(v);
    return m ? Number(m[0].trim()) : 0;
  }
  if (v instanceof PhpArray) return v.size > 0 ? 1 : 0;
  return v instanceof PhpObject ? 1 : 0;
}

/** The leading number of a string as (int) reads it: an integer exactly, a float truncated and capped. */
function stringToInt(s: string): PhpInt {
  const im = LEADING_INTEGER.exec(s);
  if (im) {
    const i = intOfDecimal(im[1]);
    // An integer that overflows is read as a float, then capped.
    if (i !== null) return i;
  }
  const m = LEADING_NUMERIC.exec(s);
  return m ? floatToIntCapped(Number(m[0].trim())) : 0;
}

/** PHP's (int) cast (zval_get_long), exact over 64 bits: "9223372036854775807" is PHP_INT_MAX. */
export function toInt64(v: Value): PhpInt {
  switch (typeof v) {
    case 'number':
      return Number.isSafeInteger(v) ? v || 0 : floatToInt(v);
    case 'bigint':
      return v;
    case 'boolean':
      return v ? 1 : 0;
    case 'string':
      return stringToInt(v);
    default:
      break; // objects and the rest: below
  }
  if (v === null || v === undefined) return 0;
  if (v instanceof PhpFloat) return floatToInt(v.value);
  if (v instanceof PhpArray) return v.size > 0 ? 1 : 0;
  return 1;
}

/**
 * PHP's (int) cast as a double, for counts, sizes and offsets, where an int past 2^53 acts as
 * its nearest double would (out of every range that matters).
 */
export function toInt(v: Value): number {
  const i = toInt64(v);
  return typeof i === 'number' ? i : Number(i);
}
