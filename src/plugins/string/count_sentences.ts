import { defineModifier } from '../types.js';
import { strArg } from '../../php/args.js';
import { countMatches } from '../../value/count-matches.js';

/**
 * Smarty 2.6: preg_match_all('/[^\s]\.(?!\w)/'): only periods count. The classes are spelt
 * out because JavaScript's \s is Unicode-wide and PCRE's (without u) is ASCII.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'count_sentences',
  origin: 'smarty',
  summary: 'Number of periods that follow a non-space and are not followed by a word character.',
  params: [],
  examples: [{ template: '{$s|count_sentences}', vars: { s: 'One. Two! Three? Four.' }, output: '2' }],
  run(input) {
    return countMatches(strArg(input, 'preg_match_all', 2, 'subject'), /[^ \t\n\v\f\r]\.(?![A-Za-z0-9_])/g);
  },
});
