/** PHP 8 comparison: `==`, `===`, and `<=>` with the loose-comparison table. */
import { PhpArray, PhpFloat, type PhpObject, type PhpNumber, type Value, isFloat, num } from './value.js';
import { numericStr, toBool, toStr } from './convert.js';

/** Byte-order string comparison (UTF-8 byte order is code point order). */
export function strcmp(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // Surrogates (astral code points) sort after the rest of the BMP in code point order.
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys && (x >= 0xe000 || y >= 0xe000)) return xs ? 1 : -1;
      return x < y ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function sign(n: number): number {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

const UNCOMPARABLE = 2;

/**
 * Two numbers as PHP 8.2 compares them: ints exactly, and an int against a float as the int's
 * double (so 9007199254740993 == 9007199254740992.0). NAN makes every relation false (1).
 */
function numCmp(x: PhpNumber, y: PhpNumber): number {
  if (typeof x === 'number' && typeof y === 'number') {
    if (Number.isNaN(x) || Number.isNaN(y)) return 1;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  // A bigint against an int compares exactly; against a float it is first rounded to a double.
  const a = typeof x === 'bigint' && isFloat(y) ? Number(x) : x instanceof PhpFloat ? x.value : x;
  const b = typeof y === 'bigint' && isFloat(x) ? Number(y) : y instanceof PhpFloat ? y.value : y;
  if (Number.isNaN(a) || Number.isNaN(b)) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Two numeric strings (zendi_smart_strcmp): as ints when both are, else as doubles, except
 * that integer strings past 64 bits still order against an int string by their side, and
 * two that overflow to the same double compare as text.
 */
function numericStrCmp(
  sa: string,
  sb: string,
  x: { n: PhpNumber; oflow: number },
  y: { n: PhpNumber; oflow: number },
): number {
  if (x.oflow !== 0 && x.oflow === y.oflow && num(x.n) === num(y.n)) return sign(strcmp(sa, sb));
  const xf = isFloat(x.n);
  const yf = isFloat(y.n);
  if (xf && !yf && x.oflow !== 0) return x.oflow;
  if (yf && !xf && y.oflow !== 0) return -y.oflow;
  if (xf && yf && num(x.n) === num(y.n) && !Number.isFinite(num(x.n))) return sign(strcmp(sa, sb));
  return numCmp(x.n, y.n);
}

/** Two JavaScript numbers (ints, or floats stored plainly) as numCmp orders them: NAN is neither below, above nor equal (1). */
function numbers(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : a === b ? 0 : 1;
}

/**
 * A string of 1 to 15 ASCII digits as the int it spells, else NaN. Such a string is numeric,
 * its value that int exactly (leading zeros too: "007" is 7), so against a number it compares
 * as that int, as PHP 8's comparison of a number with a numeric string does; anything else
 * (a sign, spaces, a point, an exponent, 16 digits and more) takes the general path.
 */
function digitsInt(s: string): number {
  const n = s.length;
  if (n === 0 || n > 15) return NaN;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return NaN;
  }
  return Number(s);
}

/** PHP's `<=>`; returns 2 for "uncomparable" (arrays with different keys), which makes every relation false. */
export function compare(a: Value, b: Value): number {
  // The common cases of a template's tests first, without the kind lookups: two JavaScript
  // numbers (ints, or floats stored plainly), and a number against a string of digits.
  if (typeof a === 'number') {
    if (typeof b === 'number') return numbers(a, b);
    if (typeof b === 'string') {
      const y = digitsInt(b);
      if (y === y) return numbers(a, y);
    }
  } else if (typeof a === 'string' && typeof b === 'number') {
    // A number from the data as text ("3" from a database row) against a literal.
    const x = digitsInt(a);
    if (x === x) return numbers(x, b);
  }
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  const ta = kind(a);
  const tb = kind(b);
  if (ta === 'number' && tb === 'number') return numCmp(a as PhpNumber, b as PhpNumber);
  if (ta === 'string' && tb === 'string') {
    const sa = a as string;
    const sb = b as string;
    const x = numericStr(sa);
    const y = x && numericStr(sb);
    if (x && y) return numericStrCmp(sa, sb, x, y);
    return sign(strcmp(sa, sb));
  }
  if ((ta === 'null' && tb === 'string') || (ta === 'string' && tb === 'null')) {
    return sign(strcmp(ta === 'null' ? '' : (a as string), tb === 'null' ? '' : (b as string)));
  }
  if (ta === 'bool' || tb === 'bool' || ta === 'null' || tb === 'null') {
    return sign(Number(toBool(a)) - Number(toBool(b)));
  }
  if (ta === 'number' && tb === 'string') {
    const y = numericStr(b as string);
    if (y) return numCmp(a as PhpNumber, y.n);
    return sign(strcmp(toStr(a), b as string));
  }
  if (ta === 'string' && tb === 'number') return -compare(b, a) as number;
  if (ta === 'array' && tb === 'array') return compareArrays(a as PhpArray, b as PhpArray);
  if (ta === 'array') return 1;
  if (tb === 'array') return -1;
  if (ta === 'object' && tb === 'object') {
    if (a === b) return 0;
    return compareArrays(objAsArray(a as PhpObject), objAsArray(b as PhpObject));
  }
  if (ta === 'object') return 1;
  return -1;
}

function objAsArray(o: PhpObject): PhpArray {
  return PhpArray.fromEntries(o.props.entries());
}

function compareArrays(a: PhpArray, b: PhpArray): number {
  if (a.size !== b.size) return sign(a.size - b.size);
  for (const [k, v] of a.entries()) {
    if (!b.has(k)) return UNCOMPARABLE;
    const c = compare(v, b.get(k));
    if (c !== 0) return c;
  }
  return 0;
}

type Kind = 'null' | 'bool' | 'number' | 'string' | 'array' | 'object';
function kind(v: Value): Kind {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'number':
    case 'bigint':
      return 'number';
    case 'string':
      return 'string';
    default:
      break; // objects and the rest: below
  }
  if (v instanceof PhpFloat) return 'number';
  if (v instanceof PhpArray) return 'array';
  return 'object';
}

export function looseEq(a: Value, b: Value): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  return compare(a, b) === 0;
}

export function strictEq(a: Value, b: Value): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === b) return true;
  const ta = kind(a);
  if (ta !== kind(b)) return false;
  if (ta === 'number') {
    // Ints have one form each, so two ints that are not === differ.
    if (isFloat(a) !== isFloat(b) || !isFloat(a)) return false;
    return num(a as PhpNumber) === num(b as PhpNumber);
  }
  if (ta === 'array') {
    const x = a as PhpArray;
    const y = b as PhpArray;
    if (x.size !== y.size) return false;
    const ex = x.entries();
    const ey = y.entries();
    for (let i = 0; i < ex.length; i++) {
      if (ex[i][0] !== ey[i][0] || !strictEq(ex[i][1], ey[i][1])) return false;
    }
    return true;
  }
  return false;
}

export function lt(a: Value, b: Value): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a < b;
  return compare(a, b) === -1;
}
// PHP compiles `a > b` as `b < a` and `a >= b` as `b <= a`: with NAN, where every comparison
// answers 1, `NAN > 1` is false, not the `compare(a, b) === 1` it would be unswapped.
export function gt(a: Value, b: Value): boolean {
  if (typeof a === 'number' && typeof b === 'number') return b < a;
  return compare(b, a) === -1;
}
export function le(a: Value, b: Value): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a <= b;
  const c = compare(a, b);
  return c === -1 || c === 0;
}
export function ge(a: Value, b: Value): boolean {
  if (typeof a === 'number' && typeof b === 'number') return b <= a;
  const c = compare(b, a);
  return c === -1 || c === 0;
}
