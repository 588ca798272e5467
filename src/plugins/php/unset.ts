import { defineModifier } from '../types.js';

/**
 * PHP's unset is a language construct, not a function. On the platform `{$x|unset}` yields
 * null (it does not remove the variable): this modifier returns null for any input.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'unset',
  origin: 'php',
  summary: 'Yields null, whatever the input (the variable itself is left as it is).',
  params: [],
  examples: [{ template: '[{$x|unset}][{$x}]', vars: { x: 'kept' }, output: '[][kept]' }],
  run() {
    return null;
  },
});
