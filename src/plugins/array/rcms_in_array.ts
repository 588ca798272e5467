import { defineModifier } from '../types.js';
import { PhpArray } from '../../value/value.js';
import { inArray } from '../../php/array/lookup.js';

export default defineModifier({
  kind: 'modifier',
  name: 'rcms_in_array',
  summary: 'Like in_array (loose comparison), safe to call with anything: false when the list is not an array.',
  origin: 'platform',
  params: [{ name: 'list', type: 'array' }],
  examples: [{ template: '{if 3|rcms_in_array:$l}yes{else}no{/if}', vars: { l: ['1', '3'] }, output: 'yes' }],
  run(needle, [list]) {
    return list instanceof PhpArray ? inArray(needle, list) : false;
  },
});
