/**
 * The values a template handles, modelled on PHP's:
 *
 * | PHP            | here                                                        |
 * |----------------|-------------------------------------------------------------|
 * | null           | `null` (`undefined` is read as null everywhere)             |
 * | bool           | `boolean`                                                   |
 * | int            | a `number` that is a safe integer, a `bigint` beyond (int64.ts) |
 * | float          | any other `number`, or a `PhpFloat` box when integral       |
 * | string         | `string` (see bytes.ts for the byte view)                   |
 * | array          | `PhpArray`                                                  |
 * | stdClass       | `PhpObject`                                                 |
 *
 * Integral floats are boxed because PHP prints them differently (`1.0E+15` against
 * `1000000000000000`) and `===` tells them apart; they are rare, so the box costs little.
 * `float()` boxes every integral float; a bare number that is integral but not a safe integer
 * (1e20, what an embedder's JavaScript may hold) is a float too, since an int that large is
 * a bigint.
 */
import { PhpArray } from './php-array.js';
import { shareRecord } from './copy-on-change.js';
import { setOwn } from './set-own.js';
import { type PhpInt, TWO_53, intOf, fitsInt64 } from './int64.js';

export type { PhpInt };

/** An array key: an int (number or bigint, see int64.ts) or a string that is not a canonical int. */
export type Key = number | bigint | string;

export class PhpFloat {
  constructor(readonly value: number) {}
}

/** PHP stdClass: properties in insertion order, reference semantics (objects are not copied). */
export class PhpObject {
  readonly props = new Map<string, Value>();
  get(name: string): Value {
    const v = this.props.get(name);
    return v === undefined ? null : v;
  }
  set(name: string, value: Value): void {
    this.props.set(name, value);
  }
}

export type Value = null | undefined | boolean | number | bigint | PhpFloat | string | PhpArray | PhpObject;

/** An int or a float. */
export type PhpNumber = number | bigint | PhpFloat;

export { PhpArray };

/** A PHP float as a plain JS value: boxed only when integral. */
export function float(n: number): number | PhpFloat {
  return Number.isInteger(n) ? new PhpFloat(n) : n;
}

export function isFloat(v: Value): boolean {
  return v instanceof PhpFloat || (typeof v === 'number' && !Number.isSafeInteger(v));
}

export function isInt(v: Value): v is PhpInt {
  return typeof v === 'number' ? Number.isSafeInteger(v) : typeof v === 'bigint';
}

/**
 * Whether JSON text carries `n` as the same template value: a safe int is read back as that int
 * and a finite non-integral number as that float, where an integral float or an int past 2^53
 * would come back as something else.
 */
export function isExactJsonNumber(n: number): boolean {
  return Number.isFinite(n) && (Number.isSafeInteger(n) || !Number.isInteger(n));
}

/** The numeric value of an int or float (boxed or not) as a double; a bigint rounds to the nearest. */
export function num(v: PhpNumber): number {
  return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : v.value;
}

/**
 * A JavaScript number from outside as a template value: an integral number within 64 bits is
 * an int (a bigint beyond 2^53, holding the double's exact value, which is what the embedder
 * had), any other number a float.
 */
function fromNumber(n: number): number | bigint {
  return Number.isSafeInteger(n) || !Number.isInteger(n) || !(n >= -(2 ** 63) && n < 2 ** 63) ? n : BigInt(n);
}

/** A JavaScript bigint from outside: an int within 64 bits, else the nearest float. */
function fromBigInt(b: bigint): PhpInt | PhpFloat {
  return fitsInt64(b) ? intOf(b) : new PhpFloat(Number(b));
}

/**
 * Converts plain JavaScript data (what an embedder passes, or JSON.parse output) into
 * template values: arrays become packed PHP arrays, objects associative arrays (or stdClass
 * objects when `objects` is set, as PHP's json_decode($s, false) would).
 */
export function fromJS(v: unknown, objects = false): Value {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return fromNumber(v);
    case 'bigint':
      return fromBigInt(v);
    case 'object': {
      if (v instanceof PhpArray || v instanceof PhpObject || v instanceof PhpFloat) return v;
      if (Array.isArray(v)) {
        const same = scalarsCopy(v);
        if (same !== null) return PhpArray.fromList(same);
        const list = new Array<Value>(v.length);
        for (let i = 0; i < v.length; i++) list[i] = fromJS(v[i], objects);
        return PhpArray.fromList(list);
      }
      if (v instanceof Date) return Math.floor(v.getTime() / 1000);
      if (objects) {
        const o = new PhpObject();
        for (const [k, x] of Object.entries(v)) o.set(k, fromJS(x, objects));
        return o;
      }
      // Plain data (the render's variables, a decoded response) is read in place; anything
      // else, a frozen object or one with a class of its own, is converted now. (`objects` is
      // false from here on.)
      if (Object.getPrototypeOf(v) === Object.prototype && Object.isExtensible(v))
        return PhpArray.fromRecord(v as Record<string, unknown>, fromPlain);
      return PhpArray.fromObject(v as Record<string, unknown>, fromPlain);
    }
    default:
      return null;
  }
}

/**
 * A copy of `v` when each of its elements is a value fromJS gives back as it is (a string, a
 * boolean, null, a number but an integral one past 2^53), else null. A list of the vars is most
 * often that (a row's tags, a grid's cells), and one pass of type tests and a slice convert it
 * without a call per element: the section page's 40 lists of 12 ints, first read in each fresh
 * render (D293). A hole reads as undefined and sends the list the long way.
 */
export function scalarsCopy(v: readonly unknown[]): Value[] | null {
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    switch (typeof x) {
      case 'string':
      case 'boolean':
        continue;
      case 'number':
        if ((x < TWO_53 && x > -TWO_53) || !Number.isInteger(x)) continue;
        return null;
      case 'object':
        if (x === null) continue;
        return null;
      default:
        return null;
    }
  }
  return v.slice() as Value[];
}

/** What an array converts its nested values with (one function, not a closure per object). */
const fromPlain = (x: unknown): Value => fromJS(x, false);

/**
 * Template values back to plain JavaScript: lists become arrays, other PHP arrays and
 * objects become plain objects (key order follows JavaScript's rules there), an int past 2^53
 * a bigint.
 */
export function toJS(v: Value): unknown {
  if (v === undefined) return null;
  if (v instanceof PhpFloat) return v.value;
  if (v instanceof PhpArray) {
    if (v.isList) return v.values().map(toJS);
    const o: Record<string, unknown> = {};
    for (const [k, x] of v.entries()) setOwn(o, typeof k === 'bigint' ? String(k) : k, toJS(x));
    return o;
  }
  if (v instanceof PhpObject) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v.props) setOwn(o, k, toJS(x));
    return o;
  }
  return v;
}

/**
 * `toJS(v)` for a read that copies or writes the result and never changes it ({return}'s JSON
 * text, its copy out of the isolate): where a lazy record's plain data (a host's answer, the
 * render's variables) reads back as itself, that data is the result, not a copy of it. A `news`
 * answer of ten contents was settled into ten maps and built again as objects for nothing.
 */
export function toJSShared(v: Value): unknown {
  if (v instanceof PhpArray) {
    const rec = v.recordSource();
    if (rec !== null) {
      const out = shareRecord(rec, sharedLeaf, 0);
      if (out !== undefined) return out;
    }
    if (v.isList) return v.values().map(toJSShared);
    const o: Record<string, unknown> = {};
    for (const [k, x] of v.entries()) setOwn(o, typeof k === 'bigint' ? String(k) : k, toJSShared(x));
    return o;
  }
  return toJS(v);
}

/**
 * `toJS(fromJS(x))` for a part of a record's data that the walk does not enter: itself for
 * strings, booleans and most numbers; never undefined, so a record is shared or copied, never
 * given up on.
 */
function sharedLeaf(x: unknown): unknown {
  switch (typeof x) {
    case 'string':
    case 'boolean':
      return x;
    case 'number':
      return fromNumber(x);
    default:
      if (x === null) return null;
      return x instanceof PhpArray ? toJSShared(x) : toJS(fromJS(x));
  }
}
