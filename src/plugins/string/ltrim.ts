import { defineModifier } from '../types.js';
import { strArg } from '../../php/args.js';
import { phpTrim } from '../../php/string/trim.js';

/** PHP ltrim: bytes from the character list (default whitespace and NUL), `a..z` ranges allowed. */
export default defineModifier({
  kind: 'modifier',
  name: 'ltrim',
  origin: 'php',
  summary: 'Strips the listed characters (default: whitespace) from the start.',
  params: [{ name: 'characters', type: 'string', default: ' \n\r\t\v\0' }],
  examples: [
    {
      template: "[{$s|ltrim}][{$t|ltrim:'a..z'}]",
      vars: { s: '  pad me \n', t: 'abc42abc' },
      output: '[pad me \n][42abc]',
    },
  ],
  run(input, [chars], ctx) {
    return phpTrim(strArg(input, 'ltrim', 1), strArg(chars, 'ltrim', 2, 'characters'), 1, 'ltrim', (m) => ctx.warn(m));
  },
});
