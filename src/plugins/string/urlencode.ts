import { defineModifier } from '../types.js';
import { strArg } from '../../php/args.js';
import { urlencode } from '../../php/string/url.js';

export default defineModifier({
  kind: 'modifier',
  name: 'urlencode',
  origin: 'php',
  summary: 'Form-style URL encoding of the UTF-8 bytes (space becomes +).',
  params: [],
  examples: [{ template: '{$s|urlencode}', vars: { s: 'a b&c=日~' }, output: 'a+b%26c%3D%E6%97%A5%7E' }],
  run(input) {
    return urlencode(strArg(input, 'urlencode', 1));
  },
});
