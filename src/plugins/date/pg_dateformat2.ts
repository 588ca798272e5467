import { defineModifier } from '../types.js';
import { toStr } from '../../value/convert.js';
import { phpDate } from '../../php/date/date.js';
import { PG_DEFAULT_FORMAT, pgTimestamp } from './pg-date.js';

/**
 * pg_dateformat, except that a time within the last 24 hours is shown as a bold green span
 * `H:i:s(Updated N <unit> ago)`. The spec gives only that shape: the exact markup and the
 * unit words (seconds / minutes / hours, singular for 1) are this port's choice.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'pg_dateformat2',
  origin: 'platform',
  summary: 'As pg_dateformat, but a time within the last 24 hours shows as a bold green "H:i:s(Updated N unit ago)".',
  params: [{ name: 'format', type: 'string', default: PG_DEFAULT_FORMAT }],
  examples: [{ template: "{'2020-01-02 03:04:05'|pg_dateformat2}", output: '2020/01/02(Thu) 03:04' }],
  run(input, [format], ctx) {
    const tz = ctx.site.timezone;
    const ts = pgTimestamp(input, ctx.now, tz);
    if (ts === null) return null;
    const age = ctx.now - ts;
    if (age < 0 || age >= 86400) return phpDate(toStr(format), ts, tz);
    const [n, unit] =
      age < 60 ? [age, 'second'] : age < 3600 ? [Math.floor(age / 60), 'minute'] : [Math.floor(age / 3600), 'hour'];
    return `<span style="font-weight:bold;color:green;">${phpDate('H:i:s', ts, tz)}(Updated ${n} ${unit}${n === 1 ? '' : 's'} ago)</span>`;
  },
});
