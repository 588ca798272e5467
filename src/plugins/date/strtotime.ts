import { defineModifier } from '../types.js';
import { intArg, strArg } from '../../php/args.js';
import { strtotimeInt } from '../../php/date/strtotime.js';

export default defineModifier({
  kind: 'modifier',
  name: 'strtotime',
  origin: 'php',
  summary: 'PHP strtotime(): a date/time text (absolute or relative) to a Unix timestamp, false when unreadable.',
  params: [{ name: 'baseTimestamp', type: 'int', default: null }],
  examples: [
    { template: "{'2024-01-15 09:30:00'|strtotime}", output: '1705278600' },
    {
      template: "{'+1 day'|strtotime:1700000000}|{'tomorrow'|strtotime:1700000000}|{'2024-02-30'|strtotime}",
      output: '1700086400|1700060400|1709218800',
    },
  ],
  run(input, [base], ctx) {
    const s = strArg(input, 'strtotime', 1, 'datetime');
    const b = base === null || base === undefined ? ctx.now : intArg(base, 'strtotime', 2, 'baseTimestamp');
    return strtotimeInt(s, b, ctx.site.timezone);
  },
});
