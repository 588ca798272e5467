/**
 * PHP 8 arithmetic and bitwise operators with int/float typing and 64-bit ints that overflow to
 * float, exactly as PHP's: an int result outside 64 bits is the float of the operation done on
 * the operands as doubles (`PHP_INT_MAX + 1` is 9.2233720368547758E+18).
 *
 * Each operator first tries two safe-integer numbers whose result is safe too, the case of
 * nearly every template; only past 2^53 does the work go to bigints (int64.ts).
 */
import { type PhpFloat, type PhpNumber, type Value, PhpArray, float, num } from './value.js';
import { PhpTypeError, toInt64, toNumber } from './convert.js';
import { type PhpInt, INT_MIN, bigOf, fitsInt64, intOf } from './int64.js';

export class PhpDivisionByZero extends Error {}

const isF = (x: PhpNumber): boolean => (typeof x === 'number' ? !Number.isSafeInteger(x) : typeof x !== 'bigint');

/** The int result of an exact bigint operation, or PHP's float when it left 64 bits. */
function bigResult(r: bigint, asFloat: () => number): PhpInt | PhpFloat {
  return fitsInt64(r) ? intOf(r) : float(asFloat());
}

type IntOp = (x: bigint, y: bigint) => bigint;
type FloatOp = (x: number, y: number) => number;

function binary(a: Value, b: Value, op: string, f: FloatOp, big: IntOp): PhpNumber {
  const x = toNumber(a, op);
  const y = toNumber(b, op);
  if (isF(x) || isF(y)) return float(f(num(x), num(y)));
  if (typeof x === 'number' && typeof y === 'number') {
    const r = f(x, y);
    if (Number.isSafeInteger(r)) return r || 0;
  }
  return bigResult(big(bigOf(x as PhpInt), bigOf(y as PhpInt)), () => f(num(x), num(y)));
}

const plus: FloatOp = (x, y) => x + y;
const minus: FloatOp = (x, y) => x - y;
const times: FloatOp = (x, y) => x * y;

export function add(a: Value, b: Value): PhpNumber {
  if (typeof a === 'number' && typeof b === 'number' && Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
    const r = a + b;
    if (Number.isSafeInteger(r)) return r;
  }
  return binary(a, b, '+', plus, (x, y) => x + y);
}
/**
 * A template's `+`: two arrays make PHP's union (the left's entries, then each of the right's
 * whose key the left lacks, `{$a+$b}`); anything else is `add`, which refuses an array beside a
 * number as PHP 8 does.
 */
export function addOperator(a: Value, b: Value): Value {
  return a instanceof PhpArray && b instanceof PhpArray ? arrayUnion(a, b) : add(a, b);
}

function arrayUnion(a: PhpArray, b: PhpArray): PhpArray {
  const out = a.clone();
  for (const [k, v] of b.entries()) {
    if (out.has(k)) continue;
    // Copy on write, as `clone` marks the left's nested arrays.
    if (v instanceof PhpArray) v.shared = true;
    out.set(k, v);
  }
  return out;
}

export function sub(a: Value, b: Value): PhpNumber {
  if (typeof a === 'number' && typeof b === 'number' && Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
    const r = a - b;
    if (Number.isSafeInteger(r)) return r;
  }
  return binary(a, b, '-', minus, (x, y) => x - y);
}
export function mul(a: Value, b: Value): PhpNumber {
  return binary(a, b, '*', times, (x, y) => x * y);
}

/**
 * `/` gives an int when both operands are ints and the division is exact, else a float
 * (PHP_INT_MIN / -1 is the float 9.2233720368547758E+18).
 */
export function div(a: Value, b: Value): PhpNumber {
  const x = toNumber(a, '/');
  const y = toNumber(b, '/');
  if (num(y) === 0) throw new PhpDivisionByZero('Division by zero');
  if (!isF(x) && !isF(y)) {
    if (typeof x === 'number' && typeof y === 'number') {
      // Tested with %, not on the quotient: (2^53-1) / (2^53-2) rounds to exactly 1.
      if (x % y === 0) return x / y || 0;
    } else {
      const bx = bigOf(x as PhpInt);
      const by = bigOf(y as PhpInt);
      if (bx % by === 0n && !(bx === INT_MIN && by === -1n)) return intOf(bx / by);
    }
  }
  return float(num(x) / num(y));
}

/** `%` works on ints (truncating both sides), result takes the sign of the left side. */
export function mod(a: Value, b: Value): PhpInt {
  toNumber(a, '%');
  toNumber(b, '%');
  const x = toInt64(a);
  const y = toInt64(b);
  if (y === 0) throw new PhpDivisionByZero('Modulo by zero');
  if (typeof x === 'number' && typeof y === 'number') {
    const r = x % y;
    return r || 0; // never -0
  }
  // PHP_INT_MIN % -1 would trap in C: PHP answers 0 for any % -1.
  if (y === -1) return 0;
  return intOf(bigOf(x) % bigOf(y));
}

/** Unary minus, PHP's `$x * -1`: -PHP_INT_MIN leaves 64 bits and is a float. */
export function neg(a: Value): PhpNumber {
  const x = toNumber(a, '*');
  if (typeof x === 'number') return Number.isSafeInteger(x) ? -x || 0 : float(-x);
  if (typeof x === 'bigint') return bigResult(-x, () => -Number(x));
  return float(-x.value);
}

function intOp(a: Value, b: Value, op: string, f: IntOp): PhpInt {
  toNumber(a, op);
  toNumber(b, op);
  return intOf(BigInt.asIntN(64, f(bigOf(toInt64(a)), bigOf(toInt64(b)))));
}

export function bitAnd(a: Value, b: Value): PhpInt {
  return intOp(a, b, '&', (x, y) => x & y);
}
export function bitOr(a: Value, b: Value): PhpInt {
  return intOp(a, b, '|', (x, y) => x | y);
}
export function bitXor(a: Value, b: Value): PhpInt {
  return intOp(a, b, '^', (x, y) => x ^ y);
}
export function shl(a: Value, b: Value): PhpInt {
  return intOp(a, b, '<<', (x, y) => (y >= 64n ? 0n : x << y));
}
export function shr(a: Value, b: Value): PhpInt {
  return intOp(a, b, '>>', (x, y) => x >> (y >= 64n ? 63n : y));
}
export function bitNot(a: Value): PhpInt {
  if (typeof a === 'string' || a === null || a === undefined || typeof a === 'boolean') {
    if (typeof a !== 'string')
      throw new PhpTypeError('Cannot perform bitwise not on ' + (a === null || a === undefined ? 'null' : 'bool'));
  }
  return intOf(BigInt.asIntN(64, ~bigOf(toInt64(a))));
}
