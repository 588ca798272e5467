import { defineModifier } from '../types.js';
import { strArg } from '../../php/args.js';
import { ucfirst } from '../../php/string/case.js';

export default defineModifier({
  kind: 'modifier',
  name: 'ucfirst',
  origin: 'php',
  summary: 'Upper-cases the first byte when it is an ASCII letter.',
  params: [],
  examples: [
    { template: '{$a|ucfirst}|{$b|ucfirst}', vars: { a: 'hello world', b: 'élan' }, output: 'Hello world|élan' },
  ],
  run(input) {
    return ucfirst(strArg(input, 'ucfirst', 1));
  },
});
