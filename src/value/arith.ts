/** PHP 8 arithmetic and bitwise operators with int/float typing and int overflow to float. */
import { PhpFloat, type Value, float } from './value.js';
import { PhpTypeError, toInt, toNumber } from './convert.js';

export class PhpDivisionByZero extends Error {}

const INT_MAX = 2 ** 63;

function intResult(n: number): number | PhpFloat {
  // PHP ints are 64-bit; past that the result is a float.
  return n >= INT_MAX || n < -INT_MAX ? float(n) : n;
}

function isF(x: number | PhpFloat): boolean {
  return typeof x !== 'number' || !Number.isInteger(x);
}
function val(x: number | PhpFloat): number {
  return typeof x === 'number' ? x : x.value;
}

function binary(a: Value, b: Value, op: string, f: (x: number, y: number) => number): number | PhpFloat {
  const x = toNumber(a, op);
  const y = toNumber(b, op);
  const r = f(val(x), val(y));
  return isF(x) || isF(y) ? float(r) : intResult(r);
}

export function add(a: Value, b: Value): number | PhpFloat {
  return binary(a, b, '+', (x, y) => x + y);
}
export function sub(a: Value, b: Value): number | PhpFloat {
  return binary(a, b, '-', (x, y) => x - y);
}
export function mul(a: Value, b: Value): number | PhpFloat {
  return binary(a, b, '*', (x, y) => x * y);
}

/** `/` gives an int when both operands are ints and the division is exact, else a float. */
export function div(a: Value, b: Value): number | PhpFloat {
  const x = toNumber(a, '/');
  const y = toNumber(b, '/');
  if (val(y) === 0) throw new PhpDivisionByZero('Division by zero');
  const r = val(x) / val(y);
  if (!isF(x) && !isF(y) && Number.isInteger(r)) return r;
  return float(r);
}

/** `%` works on ints (truncating both sides), result takes the sign of the left side. */
export function mod(a: Value, b: Value): number {
  toNumber(a, '%');
  toNumber(b, '%');
  const x = toInt(a);
  const y = toInt(b);
  if (y === 0) throw new PhpDivisionByZero('Modulo by zero');
  const r = x % y;
  return r === 0 ? 0 : r; // never -0
}

export function neg(a: Value): number | PhpFloat {
  const x = toNumber(a, '*');
  return isF(x) ? float(-val(x)) : intResult(-val(x) || 0);
}

function intOp(a: Value, b: Value, op: string, f: (x: bigint, y: bigint) => bigint): number {
  toNumber(a, op);
  toNumber(b, op);
  const r = f(BigInt.asIntN(64, BigInt(toInt(a))), BigInt.asIntN(64, BigInt(toInt(b))));
  return Number(BigInt.asIntN(64, r));
}

export function bitAnd(a: Value, b: Value): number {
  return intOp(a, b, '&', (x, y) => x & y);
}
export function bitOr(a: Value, b: Value): number {
  return intOp(a, b, '|', (x, y) => x | y);
}
export function bitXor(a: Value, b: Value): number {
  return intOp(a, b, '^', (x, y) => x ^ y);
}
export function shl(a: Value, b: Value): number {
  return intOp(a, b, '<<', (x, y) => (y >= 64n ? 0n : x << y));
}
export function shr(a: Value, b: Value): number {
  return intOp(a, b, '>>', (x, y) => x >> (y >= 64n ? 63n : y));
}
export function bitNot(a: Value): number {
  if (typeof a === 'string' || a === null || a === undefined || typeof a === 'boolean') {
    if (typeof a !== 'string') throw new PhpTypeError('Cannot perform bitwise not on ' + (a === null || a === undefined ? 'null' : 'bool'));
  }
  return Number(BigInt.asIntN(64, ~BigInt(toInt(a))));
}
