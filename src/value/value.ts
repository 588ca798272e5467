/**
 * The values a template handles, modelled on PHP's:
 *
 * | PHP            | here                                                        |
 * |----------------|-------------------------------------------------------------|
 * | null           | `null` (`undefined` is read as null everywhere)             |
 * | bool           | `boolean`                                                   |
 * | int            | a `number` that is an integer                               |
 * | float          | a non-integral `number`, or a `PhpFloat` box when integral  |
 * | string         | `string` (see bytes.ts for the byte view)                   |
 * | array          | `PhpArray`                                                  |
 * | stdClass       | `PhpObject`                                                 |
 *
 * Integral floats are boxed because PHP prints them differently (`1.0E+15` against
 * `1000000000000000`) and `===` tells them apart; they are rare, so the box costs little.
 */
import { PhpArray } from './php-array.js';

export type Key = number | string;

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

export type Value = null | undefined | boolean | number | PhpFloat | string | PhpArray | PhpObject;

export { PhpArray };

/** A PHP float as a plain JS value: boxed only when integral. */
export function float(n: number): number | PhpFloat {
  return Number.isInteger(n) ? new PhpFloat(n) : n;
}

/** PHP ints are 64-bit: an integral number outside that range can only be a float. */
export const INT_LIMIT = 2 ** 63;

export function isFloat(v: Value): boolean {
  return v instanceof PhpFloat || (typeof v === 'number' && !(Number.isInteger(v) && Math.abs(v) < INT_LIMIT));
}

export function isInt(v: Value): v is number {
  return typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < INT_LIMIT;
}

/** PHP gettype() */
export function phpType(v: Value): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'string') return 'string';
  if (isInt(v)) return 'integer';
  if (typeof v === 'number' || v instanceof PhpFloat) return 'double';
  if (v instanceof PhpArray) return 'array';
  return 'object';
}

/** The numeric value of an int or float (boxed or not). */
export function num(v: number | PhpFloat): number {
  return typeof v === 'number' ? v : v.value;
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
      return v;
    case 'bigint':
      return Number(v);
    case 'object': {
      if (v instanceof PhpArray || v instanceof PhpObject || v instanceof PhpFloat) return v;
      if (Array.isArray(v)) {
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
      if (Object.getPrototypeOf(v) === Object.prototype && Object.isExtensible(v)) return PhpArray.fromRecord(v as Record<string, unknown>, fromPlain);
      return PhpArray.fromObject(v as Record<string, unknown>, fromPlain);
    }
    default:
      return null;
  }
}

/** What an array converts its nested values with (one function, not a closure per object). */
const fromPlain = (x: unknown): Value => fromJS(x, false);

/**
 * Template values back to plain JavaScript: lists become arrays, other PHP arrays and
 * objects become plain objects (key order follows JavaScript's rules there).
 */
export function toJS(v: Value): unknown {
  if (v === undefined) return null;
  if (v instanceof PhpFloat) return v.value;
  if (v instanceof PhpArray) {
    if (v.isList) return v.values().map(toJS);
    const o: Record<string, unknown> = {};
    for (const [k, x] of v.entries()) o[k] = toJS(x);
    return o;
  }
  if (v instanceof PhpObject) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v.props) o[k] = toJS(x);
    return o;
  }
  return v;
}
