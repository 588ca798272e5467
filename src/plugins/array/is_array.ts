import { defineModifier } from '../types.js';
import { PhpArray } from '../../value/value.js';

export default defineModifier({
  kind: 'modifier',
  name: 'is_array',
  summary: 'Whether the value is an array. Use `@` (without it an array is tested element by element).',
  origin: 'php',
  params: [],
  examples: [{ template: '{if $l|@is_array}array{else}other{/if}', vars: { l: [1] }, output: 'array' }],
  run: (input) => input instanceof PhpArray,
});
