import { defineModifier } from '../types.js';
import { pregMatch } from '../../php/pcre/preg.js';

export default defineModifier({
  kind: 'modifier',
  name: 'preg_match',
  summary:
    'PHP preg_match: the input is the pattern, the argument the subject; 1 on a match, 0 without, false on error.',
  origin: 'php',
  params: [{ name: 'subject', type: 'string', required: true }],
  examples: [
    { template: "{'/^\\d+$/'|preg_match:'123'}", output: '1' },
    {
      template: "{if '/@example\\.com$/'|preg_match:$mail}yes{else}no{/if}",
      vars: { mail: 'bob@example.org' },
      output: 'no',
    },
  ],
  run(input, args, ctx) {
    return pregMatch(input, args[0], 0, 0, (m) => ctx.warn(m)).result;
  },
});
