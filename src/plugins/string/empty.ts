import { defineModifier } from '../types.js';
import { PhpObject } from '../../value/value.js';
import { toBool } from '../../value/convert.js';

/** The platform's empty: PHP empty(), and also true for a stdClass object without properties. */
export default defineModifier({
  kind: 'modifier',
  name: 'empty',
  origin: 'platform',
  summary: "true for '', '0', 0, null, false, an empty array and an empty object.",
  params: [],
  examples: [
    { template: "{if $a|@empty}empty{/if}|{if 'x'|empty}{else}set{/if}", vars: { a: [] }, output: 'empty|set' },
  ],
  run(input) {
    if (input instanceof PhpObject) return input.props.size === 0;
    return !toBool(input);
  },
});
