import { defineModifier } from '../types.js';
import { pregReplace } from '../../php/pcre/preg.js';

export default defineModifier({
  kind: 'modifier',
  name: 'preg_replace',
  summary: 'PHP preg_replace: the input is the pattern, then the replacement and the subject.',
  origin: 'php',
  params: [
    { name: 'replacement', type: 'mixed', required: true },
    { name: 'subject', type: 'mixed', required: true },
    { name: 'limit', type: 'int', default: -1 },
  ],
  examples: [
    { template: "{'/(\\d+)/'|preg_replace:'[$1]':'a12b34'}", output: 'a[12]b[34]' },
    { template: "{'/\\s+/'|preg_replace:'-':$s:1}", vars: { s: 'a b c' }, output: 'a-b c' },
  ],
  run(input, args, ctx) {
    return pregReplace(input, args[0], args[1], args[2], (m) => ctx.warn(m), false).result;
  },
});
