import { defineModifier, type ModifierContext } from '../types.js';
import type { Value } from '../../value/value.js';
import { looseEq } from '../../value/compare.js';
import { toStr } from '../../value/convert.js';
import { isPlainTimestamp, makeTimestamp } from '../../php/date/make-timestamp.js';
import { phpStrftime, strftimeFor } from '../../php/date/strftime.js';
import { phpDate } from '../../php/date/date.js';

/**
 * Smarty's `$string != ''` test. Under PHP 8 a number is never equal to '' (it compares as its
 * text), so timestamps skip the int-to-string conversion looseEq would make.
 */
const isEmptyText = (v: Value): boolean => typeof v !== 'number' && looseEq(v, '');

/**
 * date_format, the platform's variant of Smarty 2's modifier.
 *
 * Decision (spec Modifiers table, docs/dialect.md "Modifiers", and
 * this helper's brief): the default format is the platform's 'Y-m-d'. A format containing
 * '%' is applied with PHP strftime() semantics in the C locale (Smarty 2's behaviour, which
 * the golden corpus records: %e space-padded, %j 1-based...), rather than the platform's
 * partial %→date() letter mapping, which agrees with strftime on every code it maps except
 * %j (date()'s z is 0-based) and leaves the others (%e, %D, %T...) unconverted. A format
 * without '%' is a PHP date() format (stock Smarty 2 would print it literally).
 * Input: Smarty's make_timestamp (empty → now, 14 digits → MySQL local time, numeric → ts,
 * else strtotime, unparsable → now, with a warning); input and default_date both '' → nothing.
 * Time zone: the site's; "now": the render's clock.
 */
export default defineModifier({
  kind: 'modifier',
  name: 'date_format',
  origin: 'platform',
  summary:
    "Formats a timestamp, date string or MySQL datetime: strftime codes when the format has '%', else date() letters.",
  params: [
    { name: 'format', type: 'string', default: 'Y-m-d' },
    { name: 'default_date', type: 'mixed', default: '' },
  ],
  examples: [
    { template: "{$ts|date_format:'%Y-%m-%d %H:%M:%S'}", vars: { ts: 1700000000 }, output: '2023-11-15 07:13:20' },
    {
      template: "{$m|date_format:'%Y-%m-%d %H:%M:%S'}|{$d|date_format:'%b %e, %Y'}",
      vars: { m: '20240229235959', d: '2024-03-05' },
      output: '2024-02-29 23:59:59|Mar  5, 2024',
    },
    {
      template: "{$ts|date_format}|{$ts|date_format:'Y/m/d(D) H:i'}",
      vars: { ts: 1700000000 },
      output: '2023-11-15|2023/11/15(Wed) 07:13',
    },
    {
      template: "[{$e|date_format:'%Y'}]{$e|date_format:'%Y-%m-%d':'2020-02-29'}",
      vars: { e: '' },
      output: '[]2020-02-29',
    },
  ],
  run,
  // `|date_format:"%Y-%m-%d"` on a timestamp: the format parsed once, the input taken as it is.
  prepare(args) {
    const format = args[0];
    if (typeof format !== 'string' || !format.includes('%')) return undefined;
    const strftime = strftimeFor(format);
    const own = args.slice();
    return (input, ctx) => (isPlainTimestamp(input) ? strftime(input, ctx.site.timezone) : run(input, own, ctx));
  },
});

function run(input: Value, [format, defaultDate]: Value[], ctx: ModifierContext): Value {
  const tz = ctx.site.timezone;
  // Smarty 2 prints the current time for text strtotime() cannot read; the output keeps that, the log says so
  const unreadable = (text: string): void =>
    ctx.warn(`date_format could not read the date "${text.slice(0, 60)}"; using the current time as Smarty 2 does`);
  let ts: number;
  if (!isEmptyText(input)) ts = makeTimestamp(input, ctx.now, tz, unreadable);
  else if (!isEmptyText(defaultDate)) ts = makeTimestamp(defaultDate, ctx.now, tz, unreadable);
  else return null;
  const f = toStr(format);
  return f.includes('%') ? phpStrftime(f, ts, tz) : phpDate(f, ts, tz);
}
