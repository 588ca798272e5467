/**
 * The size of a {return} value as it will leave the isolate, counted before it is copied out.
 *
 * The copy repeats what the isolate shares: an array holding one 1 MB string a thousand times is
 * 1 KB of references here and 1 GB of characters on the host (and more again as JSON in a worker's
 * message). So every occurrence counts, as the copy will make it: strings by their length, other
 * scalars and keys by a fixed or textual width, each array or object entry by a few characters of
 * punctuation (about its JSON size). The walk is bounded three ways, so that measuring can neither
 * run long nor overflow the stack: the running size stops it at the limit, entries visited stop
 * it at MAX_RETURN_STEPS, and nesting stops it at MAX_RETURN_DEPTH (the bridge's own depth limit).
 */
import { LimitError } from '../value/limits.js';
import { PhpArray, PhpFloat, PhpObject, fromJS, type Value } from '../value/value.js';
import { normalizeKey } from '../value/php-array.js';

/** Array and object entries visited, in all. */
export const MAX_RETURN_STEPS = 1_000_000;
/** Nesting levels, as for values crossing the bridge (transfer.ts). */
export const MAX_RETURN_DEPTH = 64;

/** Throws a LimitError when `v`, copied out, would exceed `maxChars` characters, the steps or the depth. */
export function checkReturnSize(v: Value, maxChars: number): void {
  let size = 0;
  let steps = 0;
  // An explicit stack, not recursion: the error is thrown one frame below stop(), so its stack
  // names the {return} line (V8 keeps only the top frames of a stack). Two arrays rather than
  // one of pairs: a million pending entries stay a few MB. A lazy record's plain data is walked
  // as it is (what `fromJS` would make of each part, counted the same), not settled into maps
  // that toJSShared would then copy back out (value.ts).
  const values: unknown[] = [v];
  const depths: number[] = [0];
  const count = (n: number) => {
    steps += n;
    if (steps > MAX_RETURN_STEPS)
      throw new LimitError(`the {return} value has more than ${MAX_RETURN_STEPS} array elements and properties in all`);
  };
  while (values.length > 0) {
    const x = values.pop();
    const depth = depths.pop()!;
    if (typeof x === 'string') size += x.length + 2;
    else if (typeof x === 'number' || typeof x === 'bigint' || x instanceof PhpFloat) size += 24;
    // null, and what plain data converts to null (undefined, a function, a symbol).
    else if (typeof x !== 'object' || x === null) size += 5;
    else if (depth >= MAX_RETURN_DEPTH)
      throw new LimitError(`the {return} value is nested deeper than ${MAX_RETURN_DEPTH} levels`);
    else {
      const plain = namedObject(x);
      if (plain !== null) {
        const keys = Object.keys(plain);
        // Counted before the walk (and before entries() builds its list of pairs).
        count(keys.length);
        size += 2;
        for (const k of keys) {
          size += k.length + 4;
          values.push(plain[k]);
          depths.push(depth + 1);
        }
      } else if (Array.isArray(x)) {
        count(x.length);
        size += 2 + x.length;
        for (let i = 0; i < x.length; i++) {
          values.push(x[i]);
          depths.push(depth + 1);
        }
      } else if (x instanceof PhpArray || x instanceof PhpObject) {
        count(x instanceof PhpArray ? x.size : x.props.size);
        size += 2;
        const packed = x instanceof PhpArray ? x.packedValues() : null;
        if (packed) {
          size += packed.length;
          for (const item of packed) {
            values.push(item);
            depths.push(depth + 1);
          }
        } else {
          for (const [k, item] of x instanceof PhpArray ? x.entries() : x.props) {
            size += (typeof k === 'string' ? k.length : 16) + 4;
            values.push(item);
            depths.push(depth + 1);
          }
        }
      } else {
        // Any other object of plain data (a Date, an object with int-like keys...): as `fromJS` converts it.
        values.push(fromJS(x));
        depths.push(depth);
      }
    }
    if (size > maxChars)
      throw new LimitError(
        `the {return} value is more than ${maxChars} characters once copied out of the sandbox (the output limit)`,
        'E_OUTPUT_LIMIT',
      );
  }
}

/**
 * The object `fromJS` reads an array from, when its keys are all names (so the array is that
 * object's keys and values, in order): a lazy record's data, or a plain object inside it not yet
 * read; else null.
 */
function namedObject(x: object): Record<string, unknown> | null {
  let o: object | null;
  if (x instanceof PhpArray) o = x.recordSource();
  else if (x instanceof PhpObject || Array.isArray(x)) o = null;
  else {
    const proto = Object.getPrototypeOf(x) as unknown;
    o = proto === Object.prototype || proto === null ? x : null;
  }
  if (o === null) return null;
  for (const k of Object.keys(o)) if (typeof normalizeKey(k) !== 'string') return null;
  return o as Record<string, unknown>;
}
