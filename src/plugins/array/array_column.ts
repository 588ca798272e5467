import { defineModifier } from '../types.js';
import { arrayArg } from '../../php/args.js';
import { arrayColumn } from '../../php/array/transform.js';

export default defineModifier({
  kind: 'modifier',
  name: 'array_column',
  summary:
    'The values of one column of a list of rows (arrays or objects), optionally keyed by another column. Use `@`.',
  origin: 'php',
  params: [
    { name: 'column_key', type: 'mixed', required: true, doc: 'Column to take; null takes whole rows.' },
    { name: 'index_key', type: 'mixed', default: null, doc: 'Column whose values become the keys.' },
  ],
  examples: [
    {
      template: "{$rows|@array_column:'name':'id'|@json_encode}",
      vars: {
        rows: [
          { id: 3, name: 'a' },
          { id: 5, name: 'b' },
        ],
      },
      output: '{"3":"a","5":"b"}',
    },
  ],
  run: (input, [column, index]) => arrayColumn(arrayArg(input, 'array_column', 1), column ?? null, index ?? null),
});
