import { defineModifier } from '../types.js';
import { strReplace } from '../../php/string/str-replace.js';

/** PHP str_replace: the input is the search (PHP's first argument), then replace and subject. */
export default defineModifier({
  kind: 'modifier',
  name: 'str_replace',
  origin: 'php',
  summary: 'str_replace(search, replace, subject) with the input as search.',
  params: [
    { name: 'replace', type: 'mixed', required: true },
    { name: 'subject', type: 'mixed', required: true },
  ],
  examples: [{ template: "{'-'|str_replace:'/':$d}", vars: { d: '2024-01-15' }, output: '2024/01/15' }],
  run(input, [replace, subject]) {
    return strReplace(input, replace, subject);
  },
});
