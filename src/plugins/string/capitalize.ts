import { defineModifier } from '../types.js';
import { toBool } from '../../runtime/convert.js';
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
    { template: "{$s|capitalize}", vars: { s: "hello wORLD foo-bar o'neil x2y 3d" }, output: "Hello WORLD Foo-Bar O'neil x2y 3d" },
    { template: '{$s|capitalize:true}', vars: { s: 'x2y 3d next1 a' }, output: 'X2y 3d Next1 A' },
  ],
  run(input, [ucDigits]) {
    const digits = toBool(ucDigits);
    return pregSubject(input, 'capitalize', (s) =>
      s.replace(/'?\b\w(\w|')*\b/g, (w) =>
        (w[0] !== "'" && !/\d/.test(w)) || digits ? w[0].toUpperCase() + w.slice(1) : w,
      ),
    );
  },
});
