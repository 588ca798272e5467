/**
 * PHP 8 parameter coercion for internal functions called in non-strict mode, which is how
 * a template calls a PHP function used as a modifier. Where PHP throws a TypeError or
 * ValueError these throw PhpTypeError (the runtime turns it into null plus a warning).
 */
import { PhpArray, PhpFloat, type Value } from '../../runtime/value.js';
import { PhpTypeError, isNumericStr, toStr } from '../../runtime/convert.js';

function typeName(v: Value): string {
  if (v instanceof PhpArray) return 'array';
  if (v instanceof PhpFloat || typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'string') return 'string';
  return v === null || v === undefined ? 'null' : typeof v === 'boolean' ? 'bool' : 'stdClass';
}

function badType(fn: string, n: number, param: string, want: string, v: Value): PhpTypeError {
  return new PhpTypeError(`${fn}(): Argument #${n} ($${param}) must be of type ${want}, ${typeName(v)} given`);
}

export function valueError(fn: string, n: number, param: string, message: string): PhpTypeError {
  return new PhpTypeError(`${fn}(): Argument #${n} ($${param}) ${message}`);
}

/** A `string` parameter: scalars convert, null becomes '' (deprecated in PHP 8.1), others throw. */
export function strArg(v: Value, fn: string, n: number, param = 'string'): string {
  if (typeof v === 'string') return v;
  if (v instanceof PhpArray || (typeof v === 'object' && v !== null && !(v instanceof PhpFloat))) {
    throw badType(fn, n, param, 'string', v);
  }
  return toStr(v);
}

/** A `?string` parameter: null stays null. */
export function optStrArg(v: Value, fn: string, n: number, param: string): string | null {
  return v === null || v === undefined ? null : strArg(v, fn, n, param);
}

const INT_MAX = 2 ** 63;

/** An `int` parameter: integral or fractional floats (truncated), numeric strings, bools, null. */
export function intArg(v: Value, fn: string, n: number, param: string): number {
  let x: number;
  if (typeof v === 'number') x = v;
  else if (v instanceof PhpFloat) x = v.value;
  else if (typeof v === 'boolean') return v ? 1 : 0;
  else if (v === null || v === undefined) return 0;
  else if (typeof v === 'string') {
    if (!isNumericStr(v)) throw badType(fn, n, param, 'int', v);
    x = Number(v.trim());
  } else throw badType(fn, n, param, 'int', v);
  if (!Number.isFinite(x) || x >= INT_MAX || x < -INT_MAX) throw badType(fn, n, param, 'int', typeof v === 'string' ? v : 0.5);
  return Math.trunc(x);
}

/** A `?int` parameter. */
export function optIntArg(v: Value, fn: string, n: number, param: string): number | null {
  return v === null || v === undefined ? null : intArg(v, fn, n, param);
}

/** A `bool` parameter: scalars by truthiness, arrays and objects throw. */
export function boolArg(v: Value, fn: string, n: number, param: string): boolean {
  if (v instanceof PhpArray || (typeof v === 'object' && v !== null && !(v instanceof PhpFloat))) {
    throw badType(fn, n, param, 'bool', v);
  }
  if (v instanceof PhpFloat) return v.value !== 0;
  return typeof v === 'string' ? v !== '' && v !== '0' : Boolean(v);
}

/** True for null, booleans, numbers and strings (PHP is_scalar plus null). */
export function isScalarOrNull(v: Value): boolean {
  return v === null || v === undefined || typeof v !== 'object' || v instanceof PhpFloat;
}
