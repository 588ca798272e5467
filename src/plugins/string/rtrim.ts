import { defineModifier } from '../types.js';
import { strArg } from '../../php/args.js';
import { phpTrim } from '../../php/string/trim.js';

/** PHP rtrim: bytes from the character list (default whitespace and NUL), `a..z` ranges allowed. */
export default defineModifier({
  kind: 'modifier',
  name: 'rtrim',
  origin: 'php',
  summary: 'Strips the listed characters (default: whitespace) from the end.',
  params: [{ name: 'characters', type: 'string', default: ' \n\r\t\v\0' }],
  examples: [
    {
      template: "[{$s|rtrim}][{$t|rtrim:'a..z'}]",
      vars: { s: '  pad me \n', t: 'abc42abc' },
      output: '[  pad me][abc42]',
    },
  ],
  run(input, [chars], ctx) {
    return phpTrim(strArg(input, 'rtrim', 1), strArg(chars, 'rtrim', 2, 'characters'), 2, 'rtrim', (m) => ctx.warn(m));
  },
});
