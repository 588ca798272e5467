import { defineModifier } from '../types.js';
import { boolArg, strArg } from '../../php/args.js';
import { strstr } from '../../php/string/search.js';

export default defineModifier({
  kind: 'modifier',
  name: 'strstr',
  origin: 'php',
  summary: 'The rest of the string from the first needle (or the part before it), or false.',
  params: [
    { name: 'needle', type: 'string', required: true },
    { name: 'before_needle', type: 'bool', default: false },
  ],
  examples: [
    { template: "{$m|strstr:'@'}|{$m|strstr:'@':true}", vars: { m: 'user@example.com' }, output: '@example.com|user' },
  ],
  run(input, [needle, before]) {
    return strstr(
      strArg(input, 'strstr', 1, 'haystack'),
      strArg(needle, 'strstr', 2, 'needle'),
      boolArg(before, 'strstr', 3, 'before_needle'),
    );
  },
});
