import { defineModifier } from '../types.js';
import { phpSprintf } from '../../php/format/sprintf.js';
import { strArg } from '../../php/args.js';

/** PHP sprintf as a modifier: the input is the format, the arguments follow. */
export default defineModifier({
  kind: 'modifier',
  name: 'sprintf',
  origin: 'php',
  summary: 'PHP sprintf(): the input is the format string, the modifier arguments are the values.',
  params: [],
  examples: [
    {
      template: "{'%s-%05d'|sprintf:$a:$n}|{'%2$s %1$s'|sprintf:'world':'hello'}|{'%.1f%%'|sprintf:$r}",
      vars: { a: 'id', n: 42, r: 99.95 },
      output: 'id-00042|hello world|100.0%',
    },
  ],
  run(input, args, ctx) {
    return phpSprintf(strArg(input, 'sprintf', 1, 'format'), args, ctx);
  },
});
