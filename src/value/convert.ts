/** PHP 8 type juggling: to string, to number, to bool, numeric strings. */
import { PhpArray, PhpFloat, PhpObject, type Value, float, num, isInt } from './value.js';
import { formatFloat } from './float-format.js';

/** PHP string conversion as echo does it. Arrays print "Array"; objects "Object". */
export function toStr(v: Value): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      return isInt(v) ? intToStr(v) : formatFloat(v);
    case 'boolean':
      return v ? '1' : '';
    case 'object':
      if (v === null) return '';
      if (v instanceof PhpFloat) return formatFloat(v.value);
      if (v instanceof PhpArray) return 'Array';
      return 'Object';
    default:
      return '';
  }
}

function intToStr(n: number): string {
  // Integers past 2^53 are printed exactly as the double holds them (never 1e+21 style).
  return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
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
  }
  if (v instanceof PhpFloat) return v.value !== 0;
  if (v instanceof PhpArray) return v.size > 0;
  return true;
}

// PHP 8 numeric string: optional leading and trailing whitespace around a decimal number.
const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t\n\r\v\f]*$/;
const LEADING_NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/;
const INTEGRAL = /^[ \t\n\r\v\f]*[+-]?[0-9]+[ \t\n\r\v\f]*$/;

export function isNumericStr(s: string): boolean {
  return NUMERIC.test(s);
}

/** PHP is_numeric() */
export function isNumeric(v: Value): boolean {
  if (typeof v === 'number' || v instanceof PhpFloat) return true;
  return typeof v === 'string' && NUMERIC.test(v);
}

/** A numeric string as int or float (PHP keeps "12" an int and "1.0"/"1e3" floats). */
function parseNumericStr(s: string): number | PhpFloat {
  if (INTEGRAL.test(s)) {
    const n = Number(s.trim());
    // Beyond 64-bit range PHP falls back to float.
    return Math.abs(n) >= 2 ** 63 ? float(n) : n;
  }
  return float(Number(s.trim()));
}

export class PhpTypeError extends Error {}

/**
 * The number an arithmetic operand becomes (PHP 8): numeric strings convert, leading-numeric
 * strings use their prefix, null/false are 0, true is 1; other strings and arrays throw.
 */
export function toNumber(v: Value, op = '+'): number | PhpFloat {
  switch (typeof v) {
    case 'number':
      return v;
    case 'boolean':
      return v ? 1 : 0;
    case 'string': {
      if (NUMERIC.test(v)) return parseNumericStr(v);
      const m = LEADING_NUMERIC.exec(v);
      if (m) return parseNumericStr(m[0]);
      throw new PhpTypeError(`Unsupported operand types: string ${op} number ("${v.slice(0, 40)}" is not numeric)`);
    }
  }
  if (v === null || v === undefined) return 0;
  if (v instanceof PhpFloat) return v;
  throw new PhpTypeError(`Unsupported operand types: ${v instanceof PhpArray ? 'array' : 'object'} ${op} number`);
}

/** A lenient number for modifiers and attributes: never throws, like PHP's (float) cast. */
export function toFloatLoose(v: Value): number {
  if (typeof v === 'number') return v;
  if (v instanceof PhpFloat) return v.value;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const m = LEADING_NUMERIC.exec(v);
    return m ? Number(m[0].trim()) : 0;
  }
  if (v instanceof PhpArray) return v.size > 0 ? 1 : 0;
  return v instanceof PhpObject ? 1 : 0;
}

/** PHP (int) cast. */
export function toInt(v: Value): number {
  const f = toFloatLoose(v);
  if (!Number.isFinite(f)) return 0;
  return Math.trunc(f);
}

export { num };
