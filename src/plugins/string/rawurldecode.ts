import { defineModifier } from '../types.js';
import { strArg } from '../../php/args.js';
import { rawurldecode } from '../../php/string/url.js';

export default defineModifier({
  kind: 'modifier',
  name: 'rawurldecode',
  origin: 'php',
  summary: 'Decodes %XX escapes (a + stays a +).',
  params: [],
  examples: [{ template: '{$s|rawurldecode}', vars: { s: '%E6%97%A5+x%20y' }, output: '日+x y' }],
  run(input) {
    return rawurldecode(strArg(input, 'rawurldecode', 1));
  },
});
