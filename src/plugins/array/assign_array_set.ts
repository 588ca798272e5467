import { defineFunction } from '../types.js';
import { PhpArray } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { offsetKey } from '../../php/array/lookup.js';

export default defineFunction({
  kind: 'function',
  name: 'assign_array_set',
  summary:
    'Assigns to `var` a copy of `from` with `key` set to `value` (appended when no key is given); `from` itself is unchanged.',
  attrs: {
    var: { type: 'varname', required: true },
    from: { type: 'array', doc: 'The original array (anything else counts as an empty array).' },
    key: { type: 'mixed' },
    value: { type: 'mixed' },
  },
  examples: [
    {
      template: '{assign_array_set var=b from=$a key="z" value=3}{$b|@count}/{$a|@count}',
      vars: { a: { x: 1, y: 2 } },
      output: '3/2',
    },
  ],
  run(attrs, ctx) {
    const from = attrs.from;
    const out = from instanceof PhpArray ? from.clone() : PhpArray.empty();
    const value = attrs.value ?? null;
    if (attrs.key === null || attrs.key === undefined) out.push(value);
    else out.set(offsetKey(attrs.key, 'assign_array_set', 3), value);
    ctx.assign(toStr(attrs.var), out);
  },
});
