import { defineModifier } from '../types.js';
import { PhpArray, PhpObject, type Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { phpUsort, regularCompare } from '../../php/array/sort.js';

function field(row: Value, key: string): Value {
  if (row instanceof PhpArray) return row.get(key);
  if (row instanceof PhpObject) return row.get(key);
  return null;
}

export default defineModifier({
  kind: 'modifier',
  name: 'rcms_sort_by_key',
  summary:
    'Sorts a list of associative arrays by the value of one key (PHP `<=>` comparison, stable), ascending or descending; the result is renumbered. Use `@`.',
  origin: 'platform',
  params: [
    { name: 'key', type: 'string', required: true },
    { name: 'order', type: 'string', default: 'asc', doc: '`asc` or `desc`.' },
  ],
  examples: [
    {
      template: "{$items|@rcms_sort_by_key:'price':'desc'|@array_column:'name'|@implode:','}",
      vars: {
        items: [
          { name: 'a', price: 100 },
          { name: 'b', price: 300 },
          { name: 'c', price: 200 },
        ],
      },
      output: 'b,c,a',
    },
  ],
  run(input, [key, order]) {
    if (!(input instanceof PhpArray)) return input;
    const k = toStr(key);
    const desc = toStr(order).toLowerCase() === 'desc';
    return phpUsort(input, (a, b) =>
      desc ? regularCompare(field(b, k), field(a, k)) : regularCompare(field(a, k), field(b, k)),
    );
  },
});
