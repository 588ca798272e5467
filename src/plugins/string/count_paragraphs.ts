import { defineModifier } from '../types.js';
import { strArg } from '../../php/args.js';

/** Smarty 2.6: count(preg_split('/[\r\n]+/', $string)). */
export default defineModifier({
  kind: 'modifier',
  name: 'count_paragraphs',
  origin: 'smarty',
  summary: 'Number of pieces between runs of line breaks (an empty string counts 1).',
  params: [],
  examples: [{ template: '{$s|count_paragraphs}', vars: { s: 'Para one.\n\nPara two.\nStill two?\n\n\nThree.' }, output: '4' }],
  run(input) {
    return strArg(input, 'preg_split', 2, 'subject').split(/[\r\n]+/).length;
  },
});
