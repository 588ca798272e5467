import { defineModifier } from '../types.js';
import { PhpObject } from '../../value/value.js';

export default defineModifier({
  kind: 'modifier',
  name: 'property_exists',
  summary:
    'Whether the input object has the property (also when its value is null). false when the property name is not a string or the input is not an object (a class name has no declared properties here).',
  origin: 'platform',
  params: [{ name: 'property', type: 'string', required: true }],
  examples: [
    {
      template: "{assign var=o value=$m|@to_object}{if $o|property_exists:'name'}yes{else}no{/if}",
      vars: { m: { name: null } },
      output: 'yes',
    },
  ],
  run(input, [property]) {
    if (typeof property !== 'string') return false;
    return input instanceof PhpObject ? input.props.has(property) : false;
  },
});
