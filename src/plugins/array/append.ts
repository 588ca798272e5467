import { defineFunction } from '../types.js';
import { PhpArray } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { offsetKey } from '../../php/array/lookup.js';

export default defineFunction({
  kind: 'function',
  name: 'append',
  summary:
    'Appends `value` to the array in `var`, or stores it under `index`. An undefined or non-array variable becomes a new array.',
  attrs: {
    var: { type: 'varname', required: true, doc: 'Name of the array variable.' },
    value: { type: 'mixed', required: true, doc: 'Item to add.' },
    index: { type: 'mixed', doc: 'Key to set instead of appending.' },
  },
  examples: [
    { template: '{append var=list value="a"}{append var=list value="b"}{$list|@implode:","}', output: 'a,b' },
    { template: '{append var=m index="k" value=1}{append var=m index="k" value=2}{$m.k}', output: '2' },
  ],
  run(attrs, ctx) {
    const name = toStr(attrs.var);
    const current = ctx.get(name);
    // forWrite(): an array only this variable holds grows in place; a shared one is copied first.
    const out = current instanceof PhpArray ? current.forWrite() : PhpArray.empty();
    const value = attrs.value ?? null;
    if (attrs.index === null || attrs.index === undefined) out.push(value);
    else out.set(offsetKey(attrs.index, 'append', 3), value);
    ctx.assign(name, out);
  },
});
