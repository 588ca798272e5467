/** count() with its mode: COUNT_NORMAL (0) or COUNT_RECURSIVE (1). */
import { PhpArray, type Value } from '../../value/value.js';
import { intArg, valueError } from '../args.js';

/**
 * The mode argument as PHP 8.2 checks it, before it looks at the value: an int parameter
 * (a TypeError otherwise), then 0 or 1 (a ValueError otherwise). Omitted, or null as PHP
 * converts it, is COUNT_NORMAL.
 */
export function countMode(mode: Value): 0 | 1 {
  if (mode === undefined || mode === null) return 0;
  const m = intArg(mode, 'count', 2, 'mode');
  if (m !== 0 && m !== 1) throw valueError('count', 2, 'mode', 'must be either COUNT_NORMAL or COUNT_RECURSIVE');
  return m;
}

/**
 * The elements of the array; with COUNT_RECURSIVE also those of every array inside it, at any
 * depth (objects count as one element and are not entered). Walked with a list, not recursion:
 * nesting depth is the data's, not bounded by the call stack.
 */
export function countArray(arr: PhpArray, mode: 0 | 1): number {
  if (mode === 0) return arr.size;
  let n = 0;
  const pending: PhpArray[] = [arr];
  for (let a = pending.pop(); a !== undefined; a = pending.pop()) {
    n += a.size;
    for (const v of a.packedValues() ?? a.values()) if (v instanceof PhpArray) pending.push(v);
  }
  return n;
}
