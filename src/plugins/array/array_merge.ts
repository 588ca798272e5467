import { defineModifier } from '../types.js';
import { arrayArg } from '../../php/args.js';
import { arrayMerge } from '../../php/array/transform.js';

export default defineModifier({
  kind: 'modifier',
  name: 'array_merge',
  summary: 'Merges arrays: integer keys are renumbered and appended, string keys of later arrays overwrite. Use `@`.',
  origin: 'php',
  params: [{ name: 'arrays', type: 'array', doc: 'One or more arrays to merge after the input.' }],
  examples: [
    {
      template: '{$a|@array_merge:$b|@json_encode}',
      vars: { a: { x: 1, y: 2 }, b: { x: 9, z: 3 } },
      output: '{"x":9,"y":2,"z":3}',
    },
    { template: '{$a|@array_merge:$b|@json_encode}', vars: { a: ['a'], b: ['b', 'c'] }, output: '["a","b","c"]' },
  ],
  run(input, args) {
    const arrays = [input, ...args.filter((a) => a !== undefined)].map((a, i) => arrayArg(a, 'array_merge', i + 1));
    return arrayMerge(arrays);
  },
});
