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
  examples: [
    {
      template: '{$a|count_words}|{$c|count_words}',
      vars: { a: 'one two 3 four-five', c: '東京タワー' },
      output: '4|1',
    },
  ],
  run(input) {
    // the non-empty pieces of the split are the runs of non-whitespace, walked without an array of them
    const s = strArg(input, 'preg_split', 2, 'subject');
    const piece = /[^ \t\n\v\f\r]+/g;
    let n = 0;
    for (let m = piece.exec(s); m !== null; m = piece.exec(s)) if (/[A-Za-z0-9]|[^\x00-\x7f]/.test(m[0])) n++;
    return n;
  },
});
