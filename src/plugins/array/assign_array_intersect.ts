import { defineFunction } from '../types.js';
import { PhpArray, type Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { arrayIntersect, arrayIntersectAssoc, arrayIntersectKey } from '../../php/array/set-ops.js';

const asArray = (v: Value) => (v instanceof PhpArray ? v : PhpArray.empty());

const MODES = { normal: arrayIntersect, assoc: arrayIntersectAssoc, key: arrayIntersectKey } as const;

export default defineFunction({
  kind: 'function',
  name: 'assign_array_intersect',
  summary:
    'Assigns the elements of array1 that are also in array2: by value (`normal`, as array_intersect), by key and value (`assoc`) or by key (`key`). Keys are kept.',
  attrs: {
    var: { type: 'varname', required: true },
    array1: { type: 'array' },
    array2: { type: 'array' },
    intersect_mode: { type: 'string', default: 'normal', enum: ['normal', 'assoc', 'key'] },
  },
  examples: [
    {
      template: '{assign_array_intersect var=i array1=$a array2=$b}{$i|@implode:","}',
      vars: { a: ['x', 'y', 'z'], b: ['z', 'x'] },
      output: 'x,z',
    },
  ],
  run(attrs, ctx) {
    const mode = MODES[toStr(attrs.intersect_mode ?? 'normal') as keyof typeof MODES] ?? arrayIntersect;
    ctx.assign(toStr(attrs.var), mode(asArray(attrs.array1), [asArray(attrs.array2)]));
  },
});
