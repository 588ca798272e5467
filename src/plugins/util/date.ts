import { defineFunction } from '../types.js';
import { toStr } from '../../value/convert.js';
import { DEFAULT_DATE_FORMAT, formatAttr, formatDate, parseTime } from './format-date.js';

export default defineFunction({
  kind: 'function',
  name: 'date',
  summary:
    "Stores `date(format, strtotime(time))` in `var`, in the site time zone, relative to the render's current time. Unreadable `time` text gives 1970-01-01 (PHP's date() of false) and a warning. Prints nothing.",
  attrs: {
    var: { type: 'varname', required: true },
    time: {
      type: 'string',
      default: 'now',
      doc: 'Any strtotime() text: absolute (`2024-01-15 09:30`) or relative (`-7 day`, `today`, `now +1hour`).',
    },
    format: { type: 'string', default: DEFAULT_DATE_FORMAT, doc: 'PHP date() format letters.' },
  },
  examples: [
    {
      template: "{date var=d time='2024-01-15 09:30:00' format='Y/m/d (D) H:i'}{$d}",
      output: '2024/01/15 (Mon) 09:30',
    },
    {
      template:
        "{date var=d time='2024-02-29 +1 year' format='Y-m-d'}{$d}|{date var=w time='2024-01-15' format='N'}{$w}",
      output: '2025-03-01|1',
    },
    { template: "{date var=d time='2024-01-15 09:30:00'}{$d}", output: '2024-01-15 09:30:00' },
  ],
  run(attrs, ctx) {
    const time = attrs.time === undefined || attrs.time === null ? 'now' : toStr(attrs.time);
    ctx.assign(toStr(attrs.var ?? null), formatDate(formatAttr(attrs), parseTime('date', time, ctx), ctx));
  },
});
