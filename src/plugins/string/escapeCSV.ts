import { defineModifier } from '../types.js';
import { toStr } from '../../value/convert.js';
import { replaceEach } from '../../value/replace-each.js';
import { isScalarOrNull } from '../../php/args.js';

/**
 * The platform's escapeCSV, for one CSV field: a value holding a comma, a double quote, CR or
 * LF is wrapped in double quotes with its quotes doubled; others are returned as they are.
 * The platform also converts to the site's CSV charset; output here stays UTF-8.
 * Arrays and objects give ''.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'escapeCSV',
  origin: 'platform',
  summary: 'Escapes a value as a CSV field (quotes it when it holds , " CR or LF).',
  params: [],
  examples: [
    {
      template: '{$a|escapeCSV},{$b|escapeCSV}',
      vars: { a: 'say "hi", bob', b: 'plain' },
      output: '"say ""hi"", bob",plain',
    },
  ],
  run(input) {
    if (!isScalarOrNull(input)) return '';
    const s = toStr(input);
    return /[",\r\n]/.test(s) ? '"' + replaceEach(s, /"/g, () => '""', 'escapeCSV') + '"' : s;
  },
});
