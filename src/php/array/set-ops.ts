/**
 * array_diff / array_intersect and their _key and _assoc forms. Values are compared as
 * PHP does here, by their string forms ((string) $a === (string) $b); keys by identity
 * after PHP's key normalisation. The result keeps the first array's order and keys.
 */
import { PhpArray, PhpObject, type Value } from '../../value/value.js';
import { PhpTypeError, toStr } from '../../value/convert.js';

function str(v: Value, fn: string): string {
  if (v instanceof PhpObject)
    throw new PhpTypeError(`${fn}(): Object of class stdClass could not be converted to string`);
  return toStr(v);
}

function valueSet(a: PhpArray, fn: string): Set<string> {
  return new Set(a.values().map((v) => str(v, fn)));
}

export function arrayDiff(first: PhpArray, others: PhpArray[]): PhpArray {
  const sets = others.map((o) => valueSet(o, 'array_diff'));
  return PhpArray.fromEntries(
    first.entries().filter(([, v]) => {
      const s = str(v, 'array_diff');
      return !sets.some((set) => set.has(s));
    }),
  );
}

export function arrayIntersect(first: PhpArray, others: PhpArray[]): PhpArray {
  const sets = others.map((o) => valueSet(o, 'array_intersect'));
  return PhpArray.fromEntries(
    first.entries().filter(([, v]) => {
      const s = str(v, 'array_intersect');
      return sets.every((set) => set.has(s));
    }),
  );
}

export function arrayDiffKey(first: PhpArray, others: PhpArray[]): PhpArray {
  return PhpArray.fromEntries(first.entries().filter(([k]) => !others.some((o) => o.has(k))));
}

export function arrayIntersectKey(first: PhpArray, others: PhpArray[]): PhpArray {
  return PhpArray.fromEntries(first.entries().filter(([k]) => others.every((o) => o.has(k))));
}

export function arrayDiffAssoc(first: PhpArray, others: PhpArray[]): PhpArray {
  return PhpArray.fromEntries(
    first.entries().filter(([k, v]) => {
      const s = str(v, 'array_diff_assoc');
      return !others.some((o) => o.has(k) && str(o.get(k), 'array_diff_assoc') === s);
    }),
  );
}

export function arrayIntersectAssoc(first: PhpArray, others: PhpArray[]): PhpArray {
  return PhpArray.fromEntries(
    first.entries().filter(([k, v]) => {
      const s = str(v, 'array_intersect_assoc');
      return others.every((o) => o.has(k) && str(o.get(k), 'array_intersect_assoc') === s);
    }),
  );
}
