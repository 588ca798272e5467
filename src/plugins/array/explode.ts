import { defineModifier } from '../types.js';
import { PhpArray, PhpFloat, type Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { explode } from '../../php/array/join.js';
import { intArg } from '../../php/args.js';

const stringish = (v: Value) =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || v instanceof PhpFloat;

export default defineModifier({
  kind: 'modifier',
  name: 'explode',
  summary:
    'Splits the argument at each occurrence of the input (the delimiter, literal). Numbers are converted to strings; an empty or non-string value gives an empty array.',
  origin: 'platform',
  params: [
    { name: 'string', type: 'mixed', required: true, doc: 'The string to split.' },
    {
      name: 'limit',
      type: 'int',
      doc: "As PHP's: at most `limit` elements, the last holding the rest (0 counts as 1); negative leaves out the last -`limit` elements.",
    },
  ],
  examples: [
    { template: "{','|explode:$csv|@implode:' / '}", vars: { csv: 'a,b,,c' }, output: 'a / b /  / c' },
    { template: "{','|explode:'a,b,c':2|@implode:' / '}", output: 'a / b,c' },
    { template: "{','|explode:''|@count}", output: '0' },
  ],
  run(delimiter, args) {
    const s = args[0];
    // Omitted is no limit; given but null (a missing variable reads as undefined) is PHP's 0.
    const n = args.length > 1 ? intArg(args[1], 'explode', 3, 'limit') : undefined;
    if (!stringish(s) || !stringish(delimiter)) return PhpArray.empty();
    const text = toStr(s);
    const d = toStr(delimiter);
    if (text === '' || d === '') return PhpArray.empty();
    return explode(d, text, n);
  },
});
