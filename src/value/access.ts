/**
 * Reading values: the platform's safe null access (a missing variable, key or property is
 * null, and a chain stops at the first null), and foreach's view of any value.
 */
import { PhpArray, PhpObject, type Key, type Value } from './value.js';

export function key(base: Value, k: Value): Value {
  if (base instanceof PhpArray) return base.get(k as Key);
  return null; // strings, numbers, objects and null are not indexable here: null, silently
}

export function prop(base: Value, name: string): Value {
  if (base instanceof PhpObject) return base.get(name);
  return null;
}

/** A snapshot to iterate over: PHP's foreach works on a copy of the array. */
export interface Iteration {
  n: number;
  vals: readonly Value[];
  key(i: number): Key;
}

const EMPTY: Iteration = { n: 0, vals: [], key: () => 0 };

export function each(v: Value): Iteration {
  if (v === null || v === undefined) return EMPTY;
  if (v instanceof PhpArray) {
    const packed = v.packedValues();
    if (packed) {
      // Values stored into the loop variable are now held twice: mark nested arrays shared.
      for (const x of packed) if (x instanceof PhpArray) x.shared = true;
      return { n: packed.length, vals: packed.slice(), key: (i) => i };
    }
    const keys = v.keys();
    const vals = v.values();
    for (const x of vals) if (x instanceof PhpArray) x.shared = true;
    return { n: keys.length, vals, key: (i) => keys[i] };
  }
  if (v instanceof PhpObject) {
    const keys = Array.from(v.props.keys());
    const vals = Array.from(v.props.values());
    return { n: keys.length, vals, key: (i) => keys[i] };
  }
  // Smarty 2 casts a scalar `from` to a one-element array: it loops once with the value.
  return { n: 1, vals: [v], key: () => 0 };
}
