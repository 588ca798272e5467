import { defineFunction } from '../types.js';
import { PhpArray, type Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { explode } from '../../php/array/join.js';
import { checkSplitLength } from '../../value/limits.js';

function split(v: Value, delimiter: string): Value[] {
  if (v instanceof PhpArray) return v.values();
  const s = v === null || v === undefined ? '' : toStr(v);
  if (s === '') return [];
  return delimiter === '' ? [s] : explode(delimiter, s).values();
}

export default defineFunction({
  kind: 'function',
  name: 'assign_array',
  summary:
    'Assigns an array built from a delimited string (`values=""` gives an empty array). With `keys` (comma-separated) the values are stored under those keys, into the existing array of `var` if there is one.',
  attrs: {
    var: { type: 'varname', required: true, doc: 'Variable that receives the array.' },
    values: { type: 'mixed', default: '', doc: 'Values separated by the delimiter (numbers become strings).' },
    delimiter: { type: 'string', default: ',' },
    keys: { type: 'string', default: null, doc: 'Comma-separated keys, one per value.' },
  },
  examples: [
    { template: '{assign_array var=x values="a,b,c"}{$x|@count}:{$x.2}', output: '3:c' },
    { template: '{assign_array var=x values="1;2" delimiter=";" keys="one,two"}{$x.two}', output: '2' },
  ],
  run(attrs, ctx) {
    const name = toStr(attrs.var);
    const values = split(attrs.values, toStr(attrs.delimiter ?? ','));
    const keyList = attrs.keys === null || attrs.keys === undefined || attrs.keys === '' ? null : toStr(attrs.keys);
    if (keyList !== null) checkSplitLength(keyList, ',', 'assign_array keys');
    const keys = keyList === null ? null : keyList.split(',');
    if (keys === null) {
      ctx.assign(name, PhpArray.fromList(values));
      return;
    }
    const current = ctx.get(name);
    const out = current instanceof PhpArray ? current.clone() : PhpArray.empty();
    keys.forEach((k, i) => out.set(k, i < values.length ? values[i] : null));
    ctx.assign(name, out);
  },
});
