import { defineModifier } from '../types.js';
import { int64Arg, strArg } from '../../php/args.js';
import { phpDate } from '../../php/date/date.js';

/** PHP date() as a modifier: the input is the format, the argument the timestamp (default now). */
export default defineModifier({
  kind: 'modifier',
  name: 'date',
  origin: 'php',
  summary: 'PHP date(): the input is the format, the argument the timestamp (default: now), in the site time zone.',
  params: [{ name: 'timestamp', type: 'int', default: null }],
  examples: [
    {
      template: "{'Y-m-d H:i'|date:$ts}|{'D, jS F Y'|date:$ts}|{'N'|date:$ts}",
      vars: { ts: 1700000000 },
      output: '2023-11-15 07:13|Wed, 15th November 2023|3',
    },
  ],
  run(input, [timestamp], ctx) {
    const ts = timestamp === null || timestamp === undefined ? ctx.now : int64Arg(timestamp, 'date', 2, 'timestamp');
    return phpDate(strArg(input, 'date', 1, 'format'), ts, ctx.site.timezone);
  },
});
