/**
 * Arrays in, new arrays out: array_merge, array_slice, array_reverse, array_unique,
 * array_column, array_filter, array_sum. PHP arrays are values: nothing here mutates its input.
 */
import { PhpArray, PhpObject, type Key, type Value } from '../../value/value.js';
import { toBool, toNumber, toStr, PhpTypeError } from '../../value/convert.js';
import { add } from '../../value/arith.js';
import { normalizeKey } from '../../value/php-array.js';
import { SORT_STRING, valueCompare } from './sort.js';
import { zendSort } from './zend-sort.js';
import { offsetKey } from './lookup.js';

/** array_merge: int keys renumbered in order, string keys overwritten in place. */
export function arrayMerge(arrays: PhpArray[]): PhpArray {
  const out = PhpArray.empty();
  for (const a of arrays) {
    for (const [k, v] of a.entries()) {
      if (typeof k !== 'string') out.push(v);
      else out.set(k, v);
    }
  }
  return out;
}

export function arraySlice(
  arr: PhpArray,
  offset: number,
  length: number | null = null,
  preserveKeys = false,
): PhpArray {
  const n = arr.size;
  const out = PhpArray.empty();
  if (offset > n) return out;
  if (offset < 0) offset = Math.max(0, n + offset);
  let len: number;
  if (length === null) len = n - offset;
  else if (length < 0) len = n - offset + length;
  else len = Math.min(length, n - offset);
  if (len <= 0) return out;
  const entries = arr.entries().slice(offset, offset + len);
  for (const [k, v] of entries) {
    if (typeof k !== 'string' && !preserveKeys) out.push(v);
    else out.set(k, v);
  }
  return out;
}

export function arrayReverse(arr: PhpArray, preserveKeys = false): PhpArray {
  const out = PhpArray.empty();
  for (const [k, v] of arr.entries().reverse()) {
    if (typeof k !== 'string' && !preserveKeys) out.push(v);
    else out.set(k, v);
  }
  return out;
}

function stringForm(v: Value, fn: string): string {
  if (v instanceof PhpObject)
    throw new PhpTypeError(`${fn}(): Object of class stdClass could not be converted to string`);
  return toStr(v);
}

/**
 * array_unique: the first of equal values survives, keys kept. SORT_STRING (the default)
 * compares string forms; the other flags sort a copy and drop neighbours that compare
 * equal, as PHP does (the same result whenever the comparison is transitive).
 */
export function arrayUnique(arr: PhpArray, flags = SORT_STRING): PhpArray {
  if (flags === SORT_STRING) {
    const seen = new Set<string>();
    const out: [Key, Value][] = [];
    for (const [k, v] of arr.entries()) {
      const s = stringForm(v, 'array_unique');
      if (seen.has(s)) continue;
      seen.add(s);
      out.push([k, v]);
    }
    return PhpArray.fromEntries(out);
  }
  const cmp = valueCompare(flags);
  const items = arr.entries().map(([key, value], pos) => ({ key, value, pos }));
  if (items.length <= 1) return arr.clone();
  // PHP uses the unstable comparison here: equal values stay in whatever order zend_sort leaves.
  zendSort(items, (x, y) => cmp(x.value, y.value));
  const out = arr.clone();
  let kept = items[0];
  for (let i = 1; i < items.length; i++) {
    const cur = items[i];
    if (cmp(kept.value, cur.value) !== 0) {
      kept = cur;
      continue;
    }
    if (kept.pos > cur.pos) {
      out.delete(kept.key);
      kept = cur;
    } else {
      out.delete(cur.key);
    }
  }
  return out;
}

function fetchColumn(row: Value, key: Key): Value | undefined {
  if (row instanceof PhpArray) return row.has(key) ? row.get(key) : undefined;
  if (row instanceof PhpObject) {
    const name = String(key);
    return row.props.has(name) ? row.get(name) : undefined;
  }
  return undefined;
}

/** array_column(rows, column_key, index_key): rows that are neither arrays nor objects have no columns. */
export function arrayColumn(rows: PhpArray, columnKey: Value, indexKey: Value = null): PhpArray {
  const col = columnKey === null || columnKey === undefined ? null : offsetKey(columnKey, 'array_column', 2);
  const idx = indexKey === null || indexKey === undefined ? null : offsetKey(indexKey, 'array_column', 3);
  const out = PhpArray.empty();
  for (const row of rows.values()) {
    // A null column takes every row whole, even one that is not an array.
    const value = col === null ? row : fetchColumn(row, col);
    if (value === undefined) continue;
    const k = idx === null ? undefined : fetchColumn(row, idx);
    if (k === undefined) out.push(value);
    else {
      if (k instanceof PhpArray || k instanceof PhpObject) throw new PhpTypeError('Illegal offset type');
      out.set(normalizeKey(k), value);
    }
  }
  return out;
}

/** array_filter without a callback: keeps the truthy values with their keys. */
export function arrayFilter(arr: PhpArray): PhpArray {
  return PhpArray.fromEntries(arr.entries().filter(([, v]) => toBool(v)));
}

/**
 * array_sum (PHP 8.2): arrays and objects are skipped, other values become numbers the
 * lenient way (a non-numeric string counts as 0, "5 apples" as 5).
 */
export function arraySum(arr: PhpArray): Value {
  let sum: Value = 0;
  for (const v of arr.values()) {
    if (v instanceof PhpArray || v instanceof PhpObject) continue;
    let n: Value;
    try {
      n = toNumber(v);
    } catch {
      n = 0;
    }
    sum = add(sum, n);
  }
  return sum;
}
