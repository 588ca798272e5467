import { defineFunction } from '../types.js';
import { PhpArray, type Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { arrayDiff, arrayDiffKey } from '../../php/array/set-ops.js';

const asArray = (v: Value) => (v instanceof PhpArray ? v : PhpArray.empty());

export default defineFunction({
  kind: 'function',
  name: 'assign_array_diff',
  summary:
    'Assigns the elements of array1 that are not in array2: compared by value (`diff_mode=normal`, as array_diff) or by key (`key`, as array_diff_key). Keys are kept.',
  attrs: {
    var: { type: 'varname', required: true },
    array1: { type: 'array' },
    array2: { type: 'array' },
    diff_mode: { type: 'string', default: 'normal', enum: ['normal', 'key'] },
  },
  examples: [
    {
      template: '{assign_array_diff var=d array1=$a array2=$b}{$d|@implode:","}',
      vars: { a: ['x', 'y', 'z'], b: ['y'] },
      output: 'x,z',
    },
  ],
  run(attrs, ctx) {
    const a = asArray(attrs.array1);
    const b = asArray(attrs.array2);
    ctx.assign(toStr(attrs.var), attrs.diff_mode === 'key' ? arrayDiffKey(a, [b]) : arrayDiff(a, [b]));
  },
});
