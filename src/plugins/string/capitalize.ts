import { defineModifier } from '../types.js';
import { toBool } from '../../value/convert.js';
import { pregSubject } from '../../php/string/preg-like.js';

/**
 * Smarty 2.6: preg_replace_callback('!\'?\b\w(\w|\')*\b!', ...) with ucfirst. The pattern is
 * ASCII-only (no u flag), and so is a JavaScript regex without the u flag, which lets it run
 * on the text directly: non-ASCII characters are never word characters in either.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'capitalize',
  origin: 'smarty',
  summary: 'Upper-cases the first letter of each ASCII word; words with digits only with uc_digits.',
  params: [{ name: 'uc_digits', type: 'bool', default: false }],
  examples: [
    {
      template: '{$s|capitalize}',
      vars: { s: "hello wORLD foo-bar o'neil x2y 3d" },
      output: "Hello WORLD Foo-Bar O'neil x2y 3d",
    },
    { template: '{$s|capitalize:true}', vars: { s: 'x2y 3d next1 a' }, output: 'X2y 3d Next1 A' },
  ],
  run(input, [ucDigits]) {
    const digits = toBool(ucDigits);
    return pregSubject(input, 'capitalize', (s) => capitalizeWords(s, digits));
  },
});

const WORD = /'?\b\w(?:\w|')*\b/g;

/**
 * Only a word that starts with a-z changes (ucfirst of anything else in `\w` or a quote is the
 * same), so the words are found with `exec` and the text between changes copied as slices. A
 * replace callback per word was ~9 µs for 300 characters of prose inside an isolate.
 */
function capitalizeWords(s: string, digits: boolean): string {
  let out = '';
  let last = 0;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(s); m !== null; m = WORD.exec(s)) {
    const c = m[0].charCodeAt(0);
    if (c >= 97 && c <= 122 && (digits || !/\d/.test(m[0]))) {
      out += s.slice(last, m.index) + String.fromCharCode(c - 32);
      last = m.index + 1;
    }
  }
  return last === 0 ? s : out + s.slice(last);
}
