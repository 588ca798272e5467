import { defineModifier } from '../types.js';
import { strReplace } from '../../php/string/str-replace.js';

/** Smarty 2.6: str_replace($search, $replace, $string): literal, case-sensitive, byte-wise. */
export default defineModifier({
  kind: 'modifier',
  name: 'replace',
  origin: 'smarty',
  summary: 'Replaces every occurrence of search by replace (arrays of searches allowed).',
  params: [
    { name: 'search', type: 'mixed', required: true },
    { name: 'replace', type: 'mixed', required: true },
  ],
  examples: [{ template: "{$s|replace:'a':'x'}|{$s|replace:'':'x'}", vars: { s: 'Aaa' }, output: 'Axx|Aaa' }],
  run(input, [search, replace]) {
    return strReplace(search, replace, input);
  },
});
