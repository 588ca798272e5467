import { defineFunction } from '../types.js';
import { isNumeric, toInt, toStr } from '../../value/convert.js';
import type { PluginContext } from '../types.js';
import type { Value } from '../../value/value.js';
import { DEFAULT_DATE_FORMAT, formatAttr, formatDate, parseTime } from './format-date.js';

/**
 * A number, or a numeric string (request parameters arrive as strings), is a Unix timestamp
 * (a fraction is dropped, like PHP's int conversion); any other text goes through strtotime().
 */
function timestamp(v: Value, ctx: PluginContext): number {
  if (v === undefined || v === null) return ctx.now;
  if (isNumeric(v)) return toInt(v);
  return parseTime('strtodate', toStr(v), ctx);
}

export default defineFunction({
  kind: 'function',
  name: 'strtodate',
  summary:
    'Stores `date(format, timestamp)` in `var`, in the site time zone. `timestamp` is a Unix timestamp (number or numeric string) or strtotime() text; omitted means now. Prints nothing.',
  attrs: {
    var: { type: 'varname', required: true },
    timestamp: { type: 'mixed', doc: 'Unix timestamp, or strtotime() text. Default: now.' },
    format: { type: 'string', default: DEFAULT_DATE_FORMAT, doc: 'PHP date() format letters.' },
  },
  examples: [
    { template: "{strtodate var=d timestamp=1700000000 format='Y-m-d H:i'}{$d}", output: '2023-11-15 07:13' },
    {
      template:
        "{strtodate var=d timestamp='2024-03-10 +2 days' format='m/d'}{$d}|{strtodate var=e timestamp='86400'}{$e}",
      output: '03/12|1970-01-02 09:00:00',
    },
  ],
  run(attrs, ctx) {
    ctx.assign(toStr(attrs.var ?? null), formatDate(formatAttr(attrs), timestamp(attrs.timestamp, ctx), ctx));
  },
});
