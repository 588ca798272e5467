/**
 * sort, rsort, asort, arsort, ksort, krsort with PHP 8.2's flags and comparison functions.
 * PHP 8 sorts are stable: equal elements keep their original order (even in the reverse
 * sorts), which is what the position tie-break below does.
 */
import { PhpArray, type Key, type Value } from '../../value/value.js';
import { compare, strcmp } from '../../value/compare.js';
import { PhpTypeError, toFloatLoose, toStr } from '../../value/convert.js';
import { replaceEach } from '../../value/replace-each.js';
import { zendSort } from './zend-sort.js';

export const SORT_REGULAR = 0;
const SORT_NUMERIC = 1;
export const SORT_STRING = 2;
const SORT_LOCALE_STRING = 5;
const SORT_NATURAL = 6;
const SORT_FLAG_CASE = 8;

export type Compare = (a: Value, b: Value) => number;

/** zend_compare: "uncomparable" (2) counts as greater, as in PHP's sort callbacks. */
export function regularCompare(a: Value, b: Value): number {
  const c = compare(a, b);
  return c === 2 ? 1 : c;
}

function threeWay(x: number, y: number): number {
  return x === y ? 0 : x < y ? -1 : 1;
}

function asciiLower(s: string): string {
  return replaceEach(s, /[A-Z]+/g, (m) => m.toLowerCase(), 'sort');
}

/** The value comparison PHP picks for a sort flag (php_get_data_compare_func). */
export function valueCompare(flags: number): Compare {
  switch (flags & ~SORT_FLAG_CASE) {
    case SORT_NUMERIC:
      return (a, b) => threeWay(toFloatLoose(a), toFloatLoose(b));
    case SORT_STRING:
    case SORT_LOCALE_STRING:
      if (flags & SORT_FLAG_CASE) return (a, b) => Math.sign(strcmp(asciiLower(toStr(a)), asciiLower(toStr(b))));
      return (a, b) => Math.sign(strcmp(toStr(a), toStr(b)));
    case SORT_NATURAL:
      throw new PhpTypeError(`sort flag ${flags} is not supported (SORT_NATURAL is not implemented)`);
  }
  // SORT_REGULAR, and any flag PHP does not know: php_get_data_compare_func's default (D327).
  return regularCompare;
}

/** The key comparison PHP picks for a sort flag (php_get_key_compare_func). */
function keyCompare(flags: number): (a: Key, b: Key) => number {
  if ((flags & ~SORT_FLAG_CASE) === SORT_REGULAR) {
    return (a, b) => {
      if (typeof a !== 'string' && typeof b !== 'string') return a > b ? 1 : -1;
      return regularCompare(a, b);
    };
  }
  const values = valueCompare(flags);
  return (a, b) => values(a, b);
}

interface Item {
  key: Key;
  value: Value;
  pos: number;
}

function sortItems(arr: PhpArray, cmp: (x: Item, y: Item) => number): Item[] {
  const items = arr.entries().map(([key, value], pos) => ({ key, value, pos }));
  zendSort(items, (x, y) => cmp(x, y) || (x.pos > y.pos ? 1 : x.pos < y.pos ? -1 : 0));
  return items;
}

export type SortKind = 'sort' | 'rsort' | 'asort' | 'arsort' | 'ksort' | 'krsort';

/** The sorted copy PHP's sort function would leave in the variable. */
export function phpSort(arr: PhpArray, kind: SortKind, flags = SORT_REGULAR): PhpArray {
  let items: Item[];
  if (kind === 'ksort' || kind === 'krsort') {
    const kc = keyCompare(flags);
    items = kind === 'ksort' ? sortItems(arr, (x, y) => kc(x.key, y.key)) : sortItems(arr, (x, y) => kc(y.key, x.key));
  } else {
    const vc = valueCompare(flags);
    const reverse = kind === 'rsort' || kind === 'arsort';
    items = reverse ? sortItems(arr, (x, y) => vc(y.value, x.value)) : sortItems(arr, (x, y) => vc(x.value, y.value));
  }
  if (kind === 'sort' || kind === 'rsort') return PhpArray.fromList(items.map((i) => i.value));
  return PhpArray.fromEntries(items.map((i) => [i.key, i.value] as const));
}

/** usort with a comparison of values: stable, renumbered. */
export function phpUsort(arr: PhpArray, cmp: Compare): PhpArray {
  return PhpArray.fromList(sortItems(arr, (x, y) => cmp(x.value, y.value)).map((i) => i.value));
}
