/**
 * The copy-on-change walk of a lazy record's plain data (PhpArray.fromRecord): the data that
 * `fromJS` reads in place goes back out as itself wherever every part of it reads back as
 * itself, and a level (an object, a list) is copied only from its first part that changes.
 * `toJSShared` (value.ts, {return}'s value out of the isolate) and a host's answer
 * (protocol/transfer.ts, into the isolate) both walk this way; they differ in the leaf rule alone,
 * what a part becomes that is not a list or a plain object.
 *
 * The key rule is `fromJS`'s, so it is one for both: a key that PHP stores as an int (which may
 * make the array a list, and changes its order) or `__proto__` (which a plain object's writer
 * would take as its prototype) stops the walk of that level.
 */
import { normalizeKey } from './php-array.js';
import { setOwn } from './set-own.js';

/**
 * What a part becomes that the walk does not enter: anything but a list or a plain object, a
 * plain object whose level could not be shared, and every part nested deeper than MAX_DEPTH
 * (the leaf rule decides whether that is an error). `undefined`: this part cannot be shared, nor
 * can any level holding it; the walk gives undefined back to its caller, which takes its long way.
 */
export type LeafRule = (x: unknown, depth: number) => unknown;

/** How deep the walk goes itself: the bridge's nesting limit, which its leaf rule enforces past here. */
export const MAX_DEPTH = 64;

/**
 * The object `o` as the leaf rule writes the array `fromJS` reads from it: `o` itself where
 * every part reads back as itself, a copy from the first part that does not; undefined where
 * this level cannot be shared (a key of the rule above, a part the leaf rule refuses). An empty
 * object is the empty list `[]`, as PHP has no empty object here. Its parts are at `depth + 1`.
 */
export function shareRecord(o: Record<string, unknown>, leaf: LeafRule, depth: number): unknown {
  const keys = Object.keys(o);
  if (keys.length === 0) return [];
  let copy: Record<string, unknown> | null = null;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const c = k.charCodeAt(0);
    if (k === '__proto__' || (((c >= 48 && c <= 57) || c === 45) && typeof normalizeKey(k) !== 'string'))
      return undefined;
    const x = o[k];
    const y = sharePart(x, leaf, depth + 1);
    if (y === undefined) return undefined;
    if (y !== x && copy === null) {
      copy = {};
      for (let j = 0; j < i; j++) setOwn(copy, keys[j]!, o[keys[j]!]);
    }
    if (copy !== null) setOwn(copy, k, y);
  }
  return copy ?? o;
}

/** One part at `depth`: a list or a plain object walked, anything else by the leaf rule. */
function sharePart(x: unknown, leaf: LeafRule, depth: number): unknown {
  if (typeof x === 'object' && x !== null && depth <= MAX_DEPTH) {
    if (Array.isArray(x)) return shareList(x, leaf, depth);
    // A plain object only: one of null prototype, or of a class, is the leaf rule's.
    if (Object.getPrototypeOf(x) === Object.prototype) {
      const out = shareRecord(x as Record<string, unknown>, leaf, depth);
      if (out !== undefined) return out;
    }
  }
  return leaf(x, depth);
}

/** A list: itself, or a copy from its first element that changes; undefined when one cannot be shared. */
function shareList(x: readonly unknown[], leaf: LeafRule, depth: number): unknown {
  let copy: unknown[] | null = null;
  for (let i = 0; i < x.length; i++) {
    const e = x[i];
    const y = sharePart(e, leaf, depth + 1);
    if (y === undefined) return undefined;
    if (y !== e && copy === null) copy = x.slice(0, i);
    if (copy !== null) copy[i] = y;
  }
  return copy ?? x;
}
