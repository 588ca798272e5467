/** Smarty 2's smarty_make_timestamp() and PHP's mktime(), in a given zone. */
import { PhpArray, type Value } from '../../value/value.js';
import { isNumeric, toBool, toStr } from '../../value/convert.js';
import { zvalGetLong } from '../zval.js';
import { daysFromCivil } from './civil.js';
import { localToInstant } from './tz.js';
import { phpStrtotime } from './strtotime.js';

/**
 * mktime(hour, minute, second, month, day, year): out-of-range parts roll over.
 * Known difference: for a wall-clock time that occurs twice (the hour repeated when DST
 * ends), PHP's choice depends on whether DST is in effect at the real current time; this
 * always takes the first occurrence west of UTC (as strtotime does).
 */
export function phpMktime(h: number, i: number, s: number, m: number, d: number, y: number, tz: string): number {
  const local = daysFromCivil(y, m, 1) * 86400 + (d - 1) * 86400 + h * 3600 + i * 60 + s;
  return localToInstant(local, tz);
}

/** The common case, a Unix timestamp: an int that is not 0 and not 14 digits long. It is itself. */
export function isPlainTimestamp(v: Value): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v !== 0 && v < 1e13;
}

/**
 * empty() → now; exactly 14 digits → MySQL YYYYMMDDHHMMSS in local time; numeric → (int);
 * anything else → strtotime, and now when that fails (Smarty 2.6.33's answer on PHP 8.2, which
 * `unreadable` can report so the substitution is not silent).
 */
export function makeTimestamp(v: Value, now: number, tz: string, unreadable?: (text: string) => void): number {
  if (isPlainTimestamp(v)) return v;
  if (!toBool(v) || (v instanceof PhpArray && v.size === 0)) return now;
  if (v instanceof PhpArray) return now; // strtotime(array) is a TypeError in PHP 8; treat as unparsable
  const s = toStr(v);
  // preg_match('/^\d{14}$/'): `$` also matches before a final newline
  if (/^[0-9]{14}\n?$/.test(s)) {
    const n = (a: number, b: number) => Number(s.slice(a, b));
    return phpMktime(n(8, 10), n(10, 12), n(12, 14), n(4, 6), n(6, 8), n(0, 4), tz);
  }
  if (isNumeric(v)) return Number(zvalGetLong(v));
  const t = phpStrtotime(s, now, tz);
  if (t !== false) return t;
  unreadable?.(s);
  return now;
}
