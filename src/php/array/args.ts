/**
 * PHP 8's coercion of arguments passed to internal functions (non-strict mode): what a
 * scalar parameter accepts, and the TypeError it raises otherwise. Deprecations (null to a
 * scalar parameter, float losing precision) still convert, as PHP does.
 */
import { PhpArray, PhpFloat, PhpObject, type Value, float } from '../../runtime/value.js';
import { PhpTypeError, isNumericStr, toStr } from '../../runtime/convert.js';

/** PHP's name of a value's type in TypeError messages. */
export function typeName(v: Value): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (v instanceof PhpFloat) return 'float';
  if (v instanceof PhpArray) return 'array';
  return 'stdClass';
}

function fail(fn: string, pos: number, name: string, type: string, v: Value): never {
  throw new PhpTypeError(`${fn}(): Argument #${pos} ($${name}) must be of type ${type}, ${typeName(v)} given`);
}

export function argArray(v: Value, fn: string, pos: number, name = 'array'): PhpArray {
  if (v instanceof PhpArray) return v;
  fail(fn, pos, name, 'array', v);
}

export function argString(v: Value, fn: string, pos: number, name = 'string'): string {
  if (v instanceof PhpArray || v instanceof PhpObject) fail(fn, pos, name, 'string', v);
  return toStr(v);
}

const INT_LIMIT = 2 ** 63;

export function argInt(v: Value, fn: string, pos: number, name = 'num'): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  let n: number;
  if (typeof v === 'number') n = v;
  else if (v instanceof PhpFloat) n = v.value;
  else if (typeof v === 'string' && isNumericStr(v)) n = Number(v.trim());
  else fail(fn, pos, name, 'int', v);
  if (Number.isInteger(n) && Math.abs(n) < INT_LIMIT) return n;
  if (!Number.isFinite(n) || Math.abs(n) >= INT_LIMIT) fail(fn, pos, name, 'int', v);
  return Math.trunc(n);
}

/** An `?int` parameter: null stays null. */
export function argIntOrNull(v: Value, fn: string, pos: number, name = 'num'): number | null {
  return v === null || v === undefined ? null : argInt(v, fn, pos, name);
}

export function argBool(v: Value, fn: string, pos: number, name = 'flag'): boolean {
  if (v instanceof PhpArray || v instanceof PhpObject) fail(fn, pos, name, 'bool', v);
  if (v === null || v === undefined) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return v !== '' && v !== '0';
  return (v instanceof PhpFloat ? v.value : v) !== 0;
}

/** `int|float` parameters (range's step...). */
export function argNumber(v: Value, fn: string, pos: number, name = 'num'): number | PhpFloat {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' || v instanceof PhpFloat) return v;
  if (typeof v === 'string' && isNumericStr(v)) {
    const t = v.trim();
    const n = Number(t);
    return /^[+-]?[0-9]+$/.test(t) && Math.abs(n) < INT_LIMIT ? n : float(n);
  }
  fail(fn, pos, name, 'int|float', v);
}
