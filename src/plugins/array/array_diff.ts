import { defineModifier } from '../types.js';
import { arrayArg } from '../../php/args.js';
import { arrayDiff } from '../../php/array/set-ops.js';

export default defineModifier({
  kind: 'modifier',
  name: 'array_diff',
  summary:
    'The elements of the input whose value (compared as a string) is in none of the other arrays; keys kept. Use `@`.',
  origin: 'php',
  params: [{ name: 'arrays', type: 'array', required: true, doc: 'One or more arrays.' }],
  examples: [
    {
      template: '{$a|@array_diff:$b|@json_encode}',
      vars: { a: [1, '1', 2, 'x'], b: ['1'] },
      output: '{"2":2,"3":"x"}',
    },
  ],
  run(input, args) {
    const others = args.filter((a) => a !== undefined).map((a, i) => arrayArg(a, 'array_diff', i + 2));
    return arrayDiff(arrayArg(input, 'array_diff', 1), others);
  },
});
