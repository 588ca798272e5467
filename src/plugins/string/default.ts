import { defineModifier } from '../types.js';

/** Smarty 2.6: the default when the value is unset/null or exactly ''; 0, '0', false are kept. */
export default defineModifier({
  kind: 'modifier',
  name: 'default',
  origin: 'smarty',
  summary: "Replaces null or '' with the default; 0, '0' and false are kept.",
  params: [{ name: 'default', type: 'mixed', default: '' }],
  examples: [{ template: "{$n|default:'anon'}|{$z|default:'anon'}", vars: { n: null, z: 0 }, output: 'anon|0' }],
  run(input, [dflt]) {
    return input === null || input === undefined || input === '' ? dflt : input;
  },
});
