import { defineModifier } from '../types.js';
import { strArg } from '../../php/args.js';

/**
 * Smarty 2.6: preg_split('/\s+/') then the pieces matching /[a-zA-Z0-9\x80-\xff]/: a piece
 * counts when it has an ASCII letter or digit or any non-ASCII character.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'count_words',
  origin: 'smarty',
  summary: 'Number of whitespace-separated pieces holding a letter, digit or non-ASCII character.',
  params: [],
  examples: [{ template: '{$a|count_words}|{$c|count_words}', vars: { a: 'one two 3 four-five', c: '東京タワー' }, output: '4|1' }],
  run(input) {
    const pieces = strArg(input, 'preg_split', 2, 'subject').split(/[ \t\n\v\f\r]+/);
    return pieces.filter((p) => /[A-Za-z0-9]|[^\x00-\x7f]/.test(p)).length;
  },
});
