import { defineModifier } from '../types.js';
import { boolArg, intArg, strArg } from '../../php/args.js';
import { wordwrap } from '../../php/string/wordwrap.js';

/**
 * Smarty 2.6's wordwrap modifier is PHP's wordwrap($string, $length, $break, $cut) with
 * Smarty's defaults (80, "\n", false); both names are the same function here.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'wordwrap',
  origin: 'smarty',
  summary: 'Wraps at spaces to the given width in bytes; cut=true also splits long words.',
  params: [
    { name: 'length', type: 'int', default: 80 },
    { name: 'break', type: 'string', default: '\n' },
    { name: 'cut', type: 'bool', default: false },
  ],
  examples: [
    {
      template: "{$s|wordwrap:12:'<br />\n'}",
      vars: { s: 'The quick brown fox jumped over the lazy dog' },
      output: 'The quick<br />\nbrown fox<br />\njumped over<br />\nthe lazy dog',
    },
    { template: '{$s|wordwrap:6:"\\n":true}', vars: { s: 'A verylongword here' }, output: 'A\nverylo\nngword\nhere' },
  ],
  run(input, [length, brk, cut]) {
    return wordwrap(
      strArg(input, 'wordwrap', 1),
      intArg(length, 'wordwrap', 2, 'width'),
      strArg(brk, 'wordwrap', 3, 'break'),
      boolArg(cut, 'wordwrap', 4, 'cut_long_words'),
    );
  },
});
