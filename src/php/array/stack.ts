/**
 * array_pop, array_push, array_shift and shuffle. PHP changes the variable passed by
 * reference and returns something else (the popped value, the new count, true). A modifier
 * works on a value, so these return both: `result` is what PHP returns, `array` what the
 * variable would hold afterwards.
 */
import { PhpArray, type Value } from '../../value/value.js';
import { checkArrayLength } from '../../value/limits.js';

export interface Mutation {
  result: Value;
  array: PhpArray;
}

export function arrayPop(arr: PhpArray): Mutation {
  if (arr.size === 0) return { result: null, array: arr };
  const entries = arr.entries();
  const [, last] = entries.pop()!;
  return { result: last, array: PhpArray.fromEntries(entries) };
}

export function arrayShift(arr: PhpArray): Mutation {
  if (arr.size === 0) return { result: null, array: arr };
  const entries = arr.entries();
  const [, first] = entries.shift()!;
  // Int keys are renumbered from 0, string keys stay.
  const out = PhpArray.empty();
  for (const [k, v] of entries) {
    if (typeof k !== 'string') out.push(v);
    else out.set(k, v);
  }
  return { result: first, array: out };
}

export function arrayPush(arr: PhpArray, values: Value[]): Mutation {
  checkArrayLength(arr.size + values.length, 'array_push');
  const out = arr.clone();
  for (const v of values) out.push(v);
  return { result: out.size, array: out };
}

/** shuffle(): a random order, renumbered (Fisher-Yates over the render's generator; PHP's own generator differs). */
export function shuffle(arr: PhpArray, random: () => number): Mutation {
  const vals = arr.values();
  for (let i = vals.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [vals[i], vals[j]] = [vals[j], vals[i]];
  }
  return { result: true, array: PhpArray.fromList(vals) };
}
