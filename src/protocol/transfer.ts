/**
 * Template values as plain JSON data, for crossing between the isolate and the host:
 * PHP arrays keep their key order and int keys, integral floats stay floats, ints past 2^53
 * keep every digit (docs/decisions.md D70).
 *
 *   null | boolean | number | string      as themselves (non-integral numbers are floats)
 *   { f: n }                              an integral float
 *   { i: "digits" }                       an int past 2^53 (JSON numbers stop being exact there)
 *   { a: [[key, value], ...] }            a PHP array (an int key past 2^53 as its digits)
 *   { o: [[name, value], ...] }           a stdClass object
 */
import { PhpArray, PhpFloat, PhpObject, type Value } from '../value/value.js';
import { int64OfDecimal, intOf } from '../value/int64.js';

export type Transfer =
  | null
  | boolean
  | number
  | string
  | { f: number }
  | { i: string }
  | { a: [number | string, Transfer][] }
  | { o: [string, Transfer][] };

export class TransferError extends Error {
  readonly code = 'E_BAD_ATTRIBUTE';
}

/** Longest JSON text of one host call's values: the isolate checks before sending, the bridge on arrival. */
export const MAX_REQUEST_CHARS = 4 * 1024 * 1024;

/**
 * Throws TransferError when the strings and keys of encoded values pass MAX_REQUEST_CHARS
 * characters, before JSON.stringify builds their text in one native call (a template's array of
 * forty 16M-character strings took 4.7 s of it only to fail). `what` names the call.
 */
export function checkTransferSize(values: readonly Transfer[], what: string): void {
  let size = 0;
  const add = (n: number) => {
    size += n;
    if (size > MAX_REQUEST_CHARS)
      throw new TransferError(
        `${what} values are too large to cross the bridge (over ${MAX_REQUEST_CHARS} characters)`,
      );
  };
  const walk = (t: Transfer): void => {
    if (typeof t === 'string') return add(t.length + 2);
    if (t === null || typeof t !== 'object') return add(8);
    if ('f' in t || 'i' in t) return add(24);
    for (const [k, x] of 'a' in t ? t.a : t.o) {
      add(typeof k === 'string' ? k.length + 8 : 8);
      walk(x);
    }
  };
  for (const v of values) walk(v);
}

export function encodeValue(v: Value, depth = 0): Transfer {
  if (depth > 64) throw new TransferError('a value nested deeper than 64 levels cannot cross the bridge');
  if (v === undefined || v === null) return null;
  switch (typeof v) {
    case 'boolean':
    case 'string':
      return v;
    case 'number':
      // An integral number that is not a safe integer is a float (value.ts): JSON would read it as an int.
      return Number.isFinite(v) && (Number.isSafeInteger(v) || !Number.isInteger(v)) ? v : { f: v };
    case 'bigint':
      return { i: v.toString() };
    default:
      break; // objects and the rest: below
  }
  if (v instanceof PhpFloat) return { f: v.value };
  // A canonical int string is the int key itself in PHP, so digits carry a big key exactly.
  if (v instanceof PhpArray)
    return { a: v.entries().map(([k, x]) => [typeof k === 'bigint' ? k.toString() : k, encodeValue(x, depth + 1)]) };
  if (v instanceof PhpObject)
    return { o: Array.from(v.props.entries()).map(([k, x]) => [k, encodeValue(x, depth + 1)]) };
  throw new TransferError('not a template value');
}

/** Decodes untrusted data: anything that is not exactly the format above is refused. */
export function decodeValue(t: unknown, depth = 0): Value {
  if (depth > 64) throw new TransferError('a value nested deeper than 64 levels');
  if (t === null || typeof t === 'boolean' || typeof t === 'string') return t;
  if (typeof t === 'number')
    return Number.isFinite(t) ? (Number.isSafeInteger(t) || !Number.isInteger(t) ? t : new PhpFloat(t)) : null;
  if (typeof t !== 'object' || Array.isArray(t)) throw new TransferError('malformed value');
  const keys = Object.keys(t);
  if (keys.length !== 1) throw new TransferError('malformed value');
  const o = t as Record<string, unknown>;
  if (keys[0] === 'f' && typeof o.f === 'number') return new PhpFloat(o.f);
  if (keys[0] === 'i' && typeof o.i === 'string') return bigInt(o.i);
  const pairs = o[keys[0]];
  if (!Array.isArray(pairs)) throw new TransferError('malformed value');
  if (keys[0] === 'a') {
    const arr = PhpArray.empty();
    for (const p of pairs) {
      if (!Array.isArray(p) || p.length !== 2 || (typeof p[0] !== 'string' && typeof p[0] !== 'number'))
        throw new TransferError('malformed array');
      arr.set(p[0], decodeValue(p[1], depth + 1));
    }
    return arr;
  }
  if (keys[0] === 'o') {
    const obj = new PhpObject();
    for (const p of pairs) {
      if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'string') throw new TransferError('malformed object');
      obj.set(p[0], decodeValue(p[1], depth + 1));
    }
    return obj;
  }
  throw new TransferError('malformed value');
}

/** `{ i }`'s digits: an int past 2^53 within 64 bits, nothing else. */
function bigInt(digits: string): Value {
  const b = /^-?[1-9][0-9]{15,18}$/.test(digits) ? int64OfDecimal(digits) : null;
  const i = b === null ? null : intOf(b);
  if (typeof i !== 'bigint') throw new TransferError('malformed int');
  return i;
}
