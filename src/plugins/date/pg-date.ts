/**
 * What pg_dateformat and pg_dateformat2 share: reading the input the way PHP's DateTime
 * constructor would ('' and null are now, numbers are timestamps, text goes through
 * strtotime; unreadable text gives null).
 */
import type { Value } from '../../value/value.js';
import { isNumeric, toStr } from '../../value/convert.js';
import { zvalGetLong } from '../../php/zval.js';
import { phpStrtotime } from '../../php/date/strtotime.js';

export const PG_DEFAULT_FORMAT = 'Y/m/d(D) H:i';

export function pgTimestamp(input: Value, now: number, tz: string): number | null {
  if (input === null || input === undefined || input === '') return now;
  if (isNumeric(input)) return Number(zvalGetLong(input));
  const t = phpStrtotime(toStr(input), now, tz);
  return t === false ? null : t;
}
