import { defineModifier } from '../types.js';
import { strArg } from '../../php/args.js';
import { countMatches } from '../../value/count-matches.js';

/** Smarty 2.6: count(preg_split('/[\r\n]+/', $string)). */
export default defineModifier({
  kind: 'modifier',
  name: 'count_paragraphs',
  origin: 'smarty',
  summary: 'Number of pieces between runs of line breaks (an empty string counts 1).',
  params: [],
  examples: [
    { template: '{$s|count_paragraphs}', vars: { s: 'Para one.\n\nPara two.\nStill two?\n\n\nThree.' }, output: '4' },
  ],
  run(input) {
    // the pieces of the split: one more than the runs of line breaks
    return countMatches(strArg(input, 'preg_split', 2, 'subject'), /[\r\n]+/g) + 1;
  },
});
