import { PhpArray, type Value } from './value.js';
import { looseEq, strictEq } from './compare.js';

/** PHP in_array(): false when the haystack is not an array (the platform's rule). */
export function looseInArray(needle: Value, haystack: Value, strict: boolean): boolean {
  if (!(haystack instanceof PhpArray)) return false;
  const eq = strict ? strictEq : looseEq;
  for (const v of haystack.values()) if (eq(needle, v)) return true;
  return false;
}
