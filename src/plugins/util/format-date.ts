/**
 * What {date} and {strtodate} share: PHP date() in the site's time zone. The platform
 * documents no default format; we use 'Y-m-d H:i:s' (the MySQL-style layout its other
 * date outputs use).
 */
import type { PluginContext } from '../types.js';
import { phpDate } from '../../php/date/date.js';
import { phpStrtotime } from '../../php/date/strtotime.js';
import { toStr } from '../../value/convert.js';
import type { Value } from '../../value/value.js';

export const DEFAULT_DATE_FORMAT = 'Y-m-d H:i:s';

export function formatAttr(attrs: Record<string, Value>): string {
  const f = attrs.format;
  return f === undefined || f === null ? DEFAULT_DATE_FORMAT : toStr(f);
}

/**
 * strtotime() against the render's clock. Unreadable text gives false, which PHP's date()
 * takes as timestamp 0 (1970-01-01): kept, with a warning so the mistake is visible.
 */
export function parseTime(plugin: string, text: string, ctx: PluginContext): number {
  const ts = phpStrtotime(text, ctx.now, ctx.site.timezone);
  if (ts === false) {
    ctx.warn(
      `{${plugin}} could not read the time "${text.slice(0, 60)}"; using timestamp 0 as PHP's date(format, false) does`,
    );
    return 0;
  }
  return ts;
}

export function formatDate(format: string, ts: number, ctx: PluginContext): string {
  return phpDate(format, ts, ctx.site.timezone);
}
