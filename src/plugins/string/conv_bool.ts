import { defineModifier } from '../types.js';
import { PhpFloat } from '../../value/value.js';
import { toBool } from '../../value/convert.js';

const TRUE_WORDS = new Set(['true', '1', 'on', 'yes']);
const FALSE_WORDS = new Set(['false', '0', 'off', 'no', '']);

/**
 * The platform's conv_bool. Its internal normalisation is not published; this one reads form
 * and API strings: 'true', '1', 'on', 'yes' are true and 'false', '0', 'off', 'no', '' false
 * (case-insensitive, surrounding whitespace ignored). Other strings, numbers, arrays and
 * null follow PHP truthiness (so 'abc' and 2 are true, 0.0 and [] false).
 */
export default defineModifier({
  kind: 'modifier',
  name: 'conv_bool',
  origin: 'platform',
  summary: "Converts to a strict boolean ('true'/'on'/'yes'/'1' true, 'false'/'off'/'no'/'0'/'' false).",
  params: [],
  examples: [
    { template: "{if 'off'|conv_bool}on{else}off{/if}", output: 'off' },
    { template: "{if 'Yes'|conv_bool}on{else}off{/if}", output: 'on' },
  ],
  run(input) {
    if (typeof input === 'string') {
      const w = input.trim().toLowerCase();
      if (TRUE_WORDS.has(w)) return true;
      if (FALSE_WORDS.has(w)) return false;
      return true;
    }
    return input instanceof PhpFloat ? input.value !== 0 : toBool(input);
  },
});
