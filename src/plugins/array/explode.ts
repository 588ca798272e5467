import { defineModifier } from '../types.js';
import { PhpArray, PhpFloat, type Value } from '../../runtime/value.js';
import { toStr } from '../../runtime/convert.js';
import { explode } from '../../php/array/join.js';

const stringish = (v: Value) => typeof v === 'string' || typeof v === 'number' || v instanceof PhpFloat;

export default defineModifier({
  kind: 'modifier',
  name: 'explode',
  summary:
    'Splits the argument at each occurrence of the input (the delimiter, literal). Numbers are converted to strings; an empty or non-string value gives an empty array.',
  origin: 'platform',
  params: [{ name: 'string', type: 'mixed', required: true, doc: 'The string to split.' }],
  examples: [
    { template: "{','|explode:$csv|@implode:' / '}", vars: { csv: 'a,b,,c' }, output: 'a / b /  / c' },
    { template: "{','|explode:''|@count}", output: '0' },
  ],
  run(delimiter, [s]) {
    if (!stringish(s) || !stringish(delimiter)) return PhpArray.empty();
    const text = toStr(s);
    const d = toStr(delimiter);
    if (text === '' || d === '') return PhpArray.empty();
    return explode(d, text);
  },
});
