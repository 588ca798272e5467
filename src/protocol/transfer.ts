/**
 * Template values as plain JSON data, for crossing between the isolate and the host:
 * PHP arrays keep their key order and int keys, integral floats stay floats, ints past 2^53
 * keep every digit (docs/decisions.md D70).
 *
 *   null | boolean | number | string      as themselves (non-integral numbers are floats)
 *   { f: n }                              an integral float
 *   { i: "digits" }                       an int past 2^53 (JSON numbers stop being exact there)
 *   { l: [value, ...] }                   a PHP array whose keys are 0, 1, 2... in order (a list)
 *   { a: [[key, value], ...] }            any other PHP array (an int key past 2^53 as its digits)
 *   { o: [[name, value], ...] }           a stdClass object
 *
 * A host's answer into the isolate may also hold, wherever a value goes (AnswerTransfer):
 *
 *   { p: plain JSON data }                 the value that `fromJS` reads from that data
 *
 * for a value that plain data carries exactly: lists, arrays whose keys are all names, strings,
 * booleans, null, safe ints and non-integral floats. The isolate reads it as it reads the
 * render's variables (lazily, field by field as the template asks), where the pairs above were
 * an array per key and a PHP array built up front: a `news` answer of 7 KB took 58 µs to decode
 * that way, 16 µs this way. The host never accepts it from the isolate (decodeValue refuses it).
 */
import { PhpArray, PhpFloat, PhpObject, fromJS, isExactJsonNumber, type Value } from '../value/value.js';
import { int64OfDecimal, intOf } from '../value/int64.js';
import { shareRecord } from '../value/copy-on-change.js';

export type Transfer =
  | null
  | boolean
  | number
  | string
  | { f: number }
  | { i: string }
  | { l: Transfer[] }
  | { a: [number | string, Transfer][] }
  | { o: [string, Transfer][] };

/** A value of a host's answer: a Transfer, or plain data (`{ p }`) at any level. */
export type AnswerTransfer =
  | Transfer
  | { p: unknown }
  | { l: AnswerTransfer[] }
  | { a: [number | string, AnswerTransfer][] }
  | { o: [string, AnswerTransfer][] };

export class TransferError extends Error {
  readonly code = 'E_BAD_ATTRIBUTE';
}

/** Levels a value may nest to cross the bridge either way; the recursive walks stay far from the stack's end. */
export const MAX_TRANSFER_DEPTH = 64;

/** A value too deep to cross: a host answer's size limit when a plugin made it (bridge.ts `crossing`, D332). */
export class TransferDepthError extends TransferError {
  constructor() {
    super(`a value nested deeper than ${MAX_TRANSFER_DEPTH} levels cannot cross the bridge`);
  }
}

/** Longest JSON text of one host call's values: the isolate checks before sending, the bridge on arrival. */
export const MAX_REQUEST_CHARS = 4 * 1024 * 1024;

/**
 * Most values (scalars, arrays and objects, at any depth) one host call may send. The host's
 * JSON.parse and decode of a call cost per value, not per character, and run on the embedder's
 * thread: 300,000 one-character strings (3.8 M characters, within MAX_REQUEST_CHARS) held it
 * ~80 ms, 100,000 ~16 ms (D321). The host's own bound stays MAX_REQUEST_CHARS: it trusts nothing
 * the isolate counted.
 */
export const MAX_REQUEST_VALUES = 100_000;

/**
 * Throws TransferError when the strings and keys of encoded values pass MAX_REQUEST_CHARS
 * characters, before JSON.stringify builds their text in one native call (a template's array of
 * forty 16M-character strings took 4.7 s of it only to fail), or when they are more than
 * `maxValues` values (a host call's: MAX_REQUEST_VALUES). `what` names the call.
 */
export function checkTransferSize(values: readonly Transfer[], what: string, maxValues = Infinity): void {
  let size = 0;
  let count = 0;
  const add = (n: number) => {
    size += n;
    if (size > MAX_REQUEST_CHARS)
      throw new TransferError(
        `${what} values are too large to cross the bridge (over ${MAX_REQUEST_CHARS} characters)`,
      );
  };
  const walk = (t: Transfer): void => {
    if (++count > maxValues)
      throw new TransferError(`${what} values are too many to cross the bridge (over ${maxValues} values)`);
    if (typeof t === 'string') return add(t.length + 2);
    if (t === null || typeof t !== 'object') return add(8);
    if ('f' in t || 'i' in t) return add(24);
    if ('l' in t) {
      for (const x of t.l) {
        add(8);
        walk(x);
      }
      return;
    }
    for (const [k, x] of 'a' in t ? t.a : t.o) {
      add(typeof k === 'string' ? k.length + 8 : 8);
      walk(x);
    }
  };
  for (const v of values) walk(v);
}

export function encodeValue(v: Value, depth = 0): Transfer {
  if (depth > MAX_TRANSFER_DEPTH) throw new TransferDepthError();
  if (v === undefined || v === null) return null;
  switch (typeof v) {
    case 'boolean':
    case 'string':
      return v;
    case 'number':
      // An integral number that is not a safe integer is a float (value.ts): JSON would read it as an int.
      return isExactJsonNumber(v) ? v : { f: v };
    case 'bigint':
      return { i: v.toString() };
    default:
      break; // objects and the rest: below
  }
  if (v instanceof PhpFloat) return { f: v.value };
  if (v instanceof PhpArray) {
    // A list as its values alone: one JSON array where pairs were one per value, which the host
    // parsed and collected at several times the cost (80,000 values: 17 against 2 ms, D345).
    const list = v.packedValues();
    if (list) return { l: list.map((x) => encodeValue(x, depth + 1)) };
    // A canonical int string is the int key itself in PHP, so digits carry a big key exactly.
    return { a: v.entries().map(([k, x]) => [typeof k === 'bigint' ? k.toString() : k, encodeValue(x, depth + 1)]) };
  }
  if (v instanceof PhpObject)
    return { o: Array.from(v.props.entries()).map(([k, x]) => [k, encodeValue(x, depth + 1)]) };
  throw new TransferError('not a template value');
}

/** What `answerOf` gives for a value that plain data does not carry exactly: its encoding. */
class Encoded {
  constructor(readonly t: AnswerTransfer) {}
}

/**
 * A value for a host's answer: plain data where it carries the value exactly, pairs around what
 * it does not. One walk: each level learns from its children whether it is plain.
 */
export function encodeAnswer(v: Value, depth = 0): AnswerTransfer {
  return asAnswer(answerOf(v, depth));
}

/** A child's result as a value of the pairs: plain data wrapped in `{ p }` unless it is a scalar. */
function asAnswer(x: unknown): AnswerTransfer {
  if (x instanceof Encoded) return x.t;
  return typeof x === 'object' && x !== null ? { p: x } : (x as Transfer);
}

/** `v` as data that `fromJS` reads back as exactly `v`, or its encoding as an Encoded. */
function answerOf(v: Value, depth: number): unknown {
  if (depth > MAX_TRANSFER_DEPTH) throw new TransferDepthError();
  if (v === undefined || v === null) return null;
  switch (typeof v) {
    case 'boolean':
    case 'string':
      return v;
    case 'number':
      return isExactJsonNumber(v) ? v : new Encoded({ f: v });
    case 'bigint':
      return new Encoded({ i: v.toString() });
    default:
      break;
  }
  if (v instanceof PhpFloat)
    return Number.isFinite(v.value) && !Number.isInteger(v.value) ? v.value : new Encoded({ f: v.value });
  if (v instanceof PhpObject)
    return new Encoded({ o: Array.from(v.props.entries()).map(([k, x]) => [k, asAnswer(answerOf(x, depth + 1))]) });
  if (!(v instanceof PhpArray)) throw new TransferError('not a template value');
  const rec = v.recordSource();
  if (rec !== null) {
    const plain = shareRecord(rec, answerLeaf, depth);
    if (plain !== undefined) return plain;
  }
  const list = v.packedValues();
  if (list) {
    const out = new Array<unknown>(list.length);
    let plain = true;
    for (let i = 0; i < list.length; i++) if ((out[i] = answerOf(list[i], depth + 1)) instanceof Encoded) plain = false;
    return plain ? out : new Encoded({ l: out.map(asAnswer) });
  }
  // A PHP array's string keys are never integer-like ("1" is the int 1), so an object keeps their order.
  const entries = v.entries();
  const values = new Array<unknown>(entries.length);
  let plain = true;
  for (let i = 0; i < entries.length; i++) {
    const k = entries[i][0];
    if (typeof k !== 'string' || k === '__proto__') plain = false;
    if ((values[i] = answerOf(entries[i][1], depth + 1)) instanceof Encoded) plain = false;
  }
  if (!plain)
    return new Encoded({
      a: entries.map(([k], i) => [typeof k === 'bigint' ? k.toString() : k, asAnswer(values[i])]),
    });
  const o: Record<string, unknown> = {};
  for (let i = 0; i < entries.length; i++) o[entries[i][0] as string] = values[i];
  return o;
}

/**
 * A value inside a lazy record's object (a host plugin's row built as plain data and read by
 * `fromJS`) that the copy-on-change walk does not enter, as `answerOf` writes it; undefined where
 * it needs pairs, so that the record takes the array's own walk. The walk keeps the object itself
 * where every part is what `answerOf` would write, and copies a level where a nested array does.
 */
function answerLeaf(x: unknown, depth: number): unknown {
  if (depth > MAX_TRANSFER_DEPTH) throw new TransferDepthError();
  switch (typeof x) {
    case 'string':
    case 'boolean':
      return x;
    case 'number':
      return isExactJsonNumber(x) ? x : undefined;
    case 'object':
      break;
    default:
      return undefined;
  }
  if (x === null) return null;
  if (x instanceof PhpArray || x instanceof PhpFloat) {
    const y = answerOf(x, depth);
    return y instanceof Encoded ? undefined : y;
  }
  return undefined;
}

/** A value of a host's answer, in the isolate (the host is trusted there; the format is checked all the same). */
export function decodeAnswer(t: unknown): Value {
  return decodeValue(t, 0, true);
}

/** `{ p }` data as the pairs it stands for (the secret redactor walks pairs). */
export function plainToTransfer(x: unknown): Transfer {
  if (Array.isArray(x)) return { a: x.map((e, i) => [i, plainToTransfer(e)]) };
  if (typeof x === 'object' && x !== null)
    return { a: Object.entries(x).map(([k, e]) => [k, plainToTransfer(e)] as [string, Transfer]) };
  return x as Transfer;
}

/** Decodes untrusted data: anything that is not exactly the format above is refused. */
export function decodeValue(t: unknown, depth = 0, answer = false): Value {
  if (depth > MAX_TRANSFER_DEPTH) throw new TransferError(`a value nested deeper than ${MAX_TRANSFER_DEPTH} levels`);
  if (t === null || typeof t === 'boolean' || typeof t === 'string') return t;
  if (typeof t === 'number') return Number.isFinite(t) ? (isExactJsonNumber(t) ? t : new PhpFloat(t)) : null;
  if (typeof t !== 'object' || Array.isArray(t)) throw new TransferError('malformed value');
  const keys = Object.keys(t);
  if (keys.length !== 1) throw new TransferError('malformed value');
  const o = t as Record<string, unknown>;
  if (keys[0] === 'f' && typeof o.f === 'number') return new PhpFloat(o.f);
  if (keys[0] === 'i' && typeof o.i === 'string') return bigInt(o.i);
  if (answer && keys[0] === 'p') return fromJS(o.p);
  const pairs = o[keys[0]];
  if (!Array.isArray(pairs)) throw new TransferError('malformed value');
  if (keys[0] === 'l') {
    const values = new Array<Value>(pairs.length);
    for (let i = 0; i < pairs.length; i++) values[i] = decodeValue(pairs[i], depth + 1, answer);
    return PhpArray.fromList(values);
  }
  if (keys[0] === 'a') {
    const arr = PhpArray.empty();
    for (const p of pairs) {
      if (!Array.isArray(p) || p.length !== 2 || (typeof p[0] !== 'string' && typeof p[0] !== 'number'))
        throw new TransferError('malformed array');
      arr.set(p[0], decodeValue(p[1], depth + 1, answer));
    }
    return arr;
  }
  if (keys[0] === 'o') {
    const obj = new PhpObject();
    for (const p of pairs) {
      if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'string') throw new TransferError('malformed object');
      obj.set(p[0], decodeValue(p[1], depth + 1, answer));
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
