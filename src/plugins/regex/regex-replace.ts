import { defineModifier } from '../types.js';
import { PhpArray, type Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { replaceEach } from '../../value/replace-each.js';
import { pregReplace } from '../../php/pcre/preg.js';

// Smarty 2.6's _smarty_regex_replace_check: \s is PCRE's ASCII set.
const TRAILING_LETTERS = /[a-zA-Z\t\n\v\f\r ]+$/;

/** Cuts the pattern at the first NUL and drops `e` (and white space) from the trailing modifiers. */
function sanitizeSearch(search: string): string {
  const nul = search.indexOf('\0');
  let s = nul >= 0 ? search.slice(0, nul) : search;
  const m = TRAILING_LETTERS.exec(s);
  if (m && m[0].includes('e'))
    s = s.slice(0, m.index) + replaceEach(m[0], /[e\t\n\v\f\r ]+/g, () => '', 'regex_replace');
  return s;
}

function sanitize(search: Value): Value {
  if (!(search instanceof PhpArray)) return sanitizeSearch(toStr(search));
  return PhpArray.fromEntries(search.entries().map(([k, v]) => [k, sanitizeSearch(toStr(v))] as const));
}

export default defineModifier({
  kind: 'modifier',
  name: 'regex_replace',
  summary: 'Regular-expression replace (PHP preg_replace after Smarty 2 sanitising: cut at NUL, /e removed).',
  origin: 'smarty',
  params: [
    {
      name: 'search',
      type: 'mixed',
      required: true,
      doc: 'PCRE pattern with delimiters and modifiers, or an array of them',
    },
    {
      name: 'replace',
      type: 'mixed',
      required: true,
      doc: 'replacement; $1, \\1 and ${1} refer to groups, in single quotes (in double quotes $1 is a template variable, as in Smarty 2)',
    },
  ],
  examples: [
    { template: "{$s|regex_replace:'/\\s+/':' '}", vars: { s: 'too   many \t\n spaces' }, output: 'too many spaces' },
    {
      template: "{$s|regex_replace:'/./':'x'}|{$s|regex_replace:'/./u':'x'}",
      vars: { s: '日本' },
      output: 'xxxxxx|xx',
    },
    { template: "{$s|regex_replace:'/a/e':'o'}", vars: { s: 'banana' }, output: 'bonono' },
    { template: "{$d|regex_replace:'/(\\d+)-(\\d+)/':'$2/$1'}", vars: { d: '06-2024' }, output: '2024/06' },
  ],
  run(input, args, ctx) {
    // No count asked for: a pattern that cannot match empty takes the native replace (D378).
    return pregReplace(sanitize(args[0]), args[1], input, -1, (m) => ctx.warn(m), false).result;
  },
});
