/** Reading arrays: array_keys, array_values, array_key_exists, key, in_array, array_search, count. */
import { PhpArray, PhpObject, type Key, type Value } from '../../value/value.js';
import { looseEq, strictEq } from '../../value/compare.js';
import { PhpTypeError } from '../../value/convert.js';
import { normalizeKey } from '../../value/php-array.js';
import { typeName } from '../args.js';

export function arrayKeys(arr: PhpArray, filter?: Value, strict = false): PhpArray {
  if (filter === undefined) return PhpArray.fromList(arr.keys());
  const eq = strict ? strictEq : looseEq;
  return PhpArray.fromList(
    arr
      .entries()
      .filter(([, v]) => eq(v, filter))
      .map(([k]) => k),
  );
}

export function arrayValues(arr: PhpArray): PhpArray {
  return PhpArray.fromList(arr.values());
}

/** An array offset as array_key_exists() and array_column() accept it (arrays and objects are refused). */
export function offsetKey(key: Value, fn: string, pos: number): Key {
  if (key instanceof PhpArray || key instanceof PhpObject) {
    throw new PhpTypeError(
      `${fn}(): Argument #${pos} ($key) must be a valid array offset type, ${typeName(key)} given`,
    );
  }
  return normalizeKey(key);
}

export function arrayKeyExists(key: Value, arr: PhpArray): boolean {
  return arr.has(offsetKey(key, 'array_key_exists', 1));
}

/** key(): the key at the internal pointer, which is always the first one here. */
export function firstKey(arr: PhpArray): Key | null {
  for (const k of arr.keys()) return k;
  return null;
}

export function arraySearch(needle: Value, arr: PhpArray, strict = false): Key | false {
  const eq = strict ? strictEq : looseEq;
  for (const [k, v] of arr.entries()) if (eq(v, needle)) return k;
  return false;
}

export function inArray(needle: Value, arr: PhpArray, strict = false): boolean {
  return arraySearch(needle, arr, strict) !== false;
}
