import { defineModifier } from '../types.js';
import { PhpArray, PhpObject } from '../../value/value.js';
import { PhpTypeError } from '../../value/convert.js';
import { range } from '../../php/array/range.js';
import { typeName } from '../../php/args.js';

export default defineModifier({
  kind: 'modifier',
  name: 'range',
  summary:
    'An array of numbers (or single characters) from the input to end, by step (PHP 8.2 rules). At most 1,000,000 elements.',
  origin: 'php',
  params: [
    { name: 'end', type: 'mixed', required: true },
    { name: 'step', type: 'number', default: 1 },
  ],
  examples: [
    { template: "{1|range:5|@implode:','}", output: '1,2,3,4,5' },
    { template: "{'a'|range:'e':2|@implode:''}", output: 'ace' },
  ],
  run(start, [end, step]) {
    for (const [i, v] of [start, end, step].entries()) {
      if (v instanceof PhpArray || v instanceof PhpObject) {
        throw new PhpTypeError(`range(): Argument #${i + 1} must be of type string|int|float, ${typeName(v)} given`);
      }
    }
    return range(start, end ?? null, step === undefined ? 1 : step);
  },
});
