import { defineModifier } from '../types.js';
import { toStr } from '../../value/convert.js';
import { phpDate } from '../../php/date/date.js';
import { PG_DEFAULT_FORMAT, pgTimestamp } from './pg-date.js';

/**
 * The platform's pg_dateformat: date() letters, default 'Y/m/d(D) H:i'. The spec says day and
 * month names follow the locale; this renders them in English (the C locale) whatever the
 * site language: the localized names are not specified.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'pg_dateformat',
  origin: 'platform',
  summary: "Formats a date string, relative text or timestamp with date() letters; default 'Y/m/d(D) H:i'.",
  params: [{ name: 'format', type: 'string', default: PG_DEFAULT_FORMAT }],
  examples: [
    {
      template: "{$d|pg_dateformat}|{$d|pg_dateformat:'Y年n月j日'}",
      vars: { d: '2024-01-15 09:30:00' },
      output: '2024/01/15(Mon) 09:30|2024年1月15日',
    },
  ],
  run(input, [format], ctx) {
    const ts = pgTimestamp(input, ctx.now, ctx.site.timezone);
    return ts === null ? null : phpDate(toStr(format), ts, ctx.site.timezone);
  },
});
