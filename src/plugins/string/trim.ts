import { defineModifier } from '../types.js';
import { strArg } from '../../php/args.js';
import { phpTrim } from '../../php/string/trim.js';

/** PHP trim: bytes from the character list (default whitespace and NUL), `a..z` ranges allowed. */
export default defineModifier({
  kind: 'modifier',
  name: 'trim',
  origin: 'php',
  summary: 'Strips the listed characters (default: whitespace) from the both ends.',
  params: [{ name: 'characters', type: 'string', default: ' \n\r\t\v\0' }],
  examples: [
    { template: "[{$s|trim}][{$t|trim:'*-'}]", vars: { s: '  pad me \n', t: '*-*x-*' }, output: '[pad me][x]' },
  ],
  run(input, [chars], ctx) {
    return phpTrim(strArg(input, 'trim', 1), strArg(chars, 'trim', 2, 'characters'), 3, 'trim', (m) => ctx.warn(m));
  },
});
