import { defineModifier } from '../types.js';
import { strArg } from '../../php/args.js';
import { ucwords } from '../../php/string/case.js';

export default defineModifier({
  kind: 'modifier',
  name: 'ucwords',
  origin: 'php',
  summary: 'Upper-cases the first ASCII letter of each word (words split on whitespace or the delimiters).',
  params: [{ name: 'separators', type: 'string', default: ' \t\r\n\f\v' }],
  examples: [{ template: '{$s|ucwords}', vars: { s: "hello world-foo o'neil" }, output: "Hello World-foo O'neil" }],
  run(input, [seps]) {
    return ucwords(strArg(input, 'ucwords', 1), strArg(seps, 'ucwords', 2, 'separators'));
  },
});
