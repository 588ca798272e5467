/**
 * Time zone rules from Intl (the isolate has no tzdata of its own): the UTC offset at an
 * instant, the abbreviation PHP prints for `T`/`%Z`, the DST flag, and timelib's way of
 * turning a local wall-clock time into an instant (gaps and overlaps included).
 */
import { civilFromDays, daysFromCivil } from './civil.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Whether Intl knows the zone name. */
export function isValidTimezone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

/**
 * Offsets by UTC day, per zone: a day whose first and last second have the same offset has it
 * throughout (tzdata has no pair of transitions that cancel within one day), so one Map lookup
 * answers every instant of it. Asking Intl costs about 5 µs, which `date_format` in the
 * default Asia/Tokyo paid per call. Days with a transition are NaN here and ask Intl per instant.
 */
const dayOffsets = new Map<string, Map<number, number>>();
const MAX_DAYS_PER_ZONE = 20_000;

/** UTC offset in seconds of `tz` at the instant `ts` (Unix seconds). */
export function utcOffset(ts: number, tz: string): number {
  if (tz === 'UTC') return 0;
  let days = dayOffsets.get(tz);
  if (!days) dayOffsets.set(tz, (days = new Map()));
  const day = Math.floor(ts / 86400);
  let off = days.get(day);
  if (off === undefined) {
    const start = intlOffset(day * 86400, tz);
    off = start === intlOffset(day * 86400 + 86399, tz) ? start : NaN;
    if (days.size >= MAX_DAYS_PER_ZONE) days.clear();
    days.set(day, off);
  }
  return Number.isNaN(off) ? intlOffset(ts, tz) : off;
}

/** Seconds in 400 Gregorian years: 146097 days, a whole number of weeks. */
const GREGORIAN_CYCLE = 146097 * 86400;
/** A Date holds ±8.64e15 ms; a day's margin keeps `ts + 86399` inside. */
const DATE_LIMIT = 8.64e12 - 86400;

/**
 * `ts` moved by whole 400-year cycles into the range a Date can hold. Out there a zone is past
 * its last transition (its rule repeats every year, and the calendar every 400 years, weekdays
 * included) or before its first (a constant offset), so the offset is the same, as timelib's
 * POSIX-string rules give it for any year.
 */
function intoDateRange(ts: number): number {
  if (Math.abs(ts) <= DATE_LIMIT) return ts;
  const cycles = Math.ceil((Math.abs(ts) - DATE_LIMIT) / GREGORIAN_CYCLE);
  return ts - Math.sign(ts) * cycles * GREGORIAN_CYCLE;
}

/** The offset at one instant, as Intl computes it (exact, slow). */
export function intlOffset(ts: number, tz: string): number {
  ts = intoDateRange(ts);
  const p: Record<string, string> = {};
  for (const part of formatter(tz).formatToParts(new Date(ts * 1000))) p[part.type] = part.value;
  let y = Number(p.year);
  if (p.era === 'BC' || p.era === 'B') y = 1 - y;
  const local = Date.UTC(2000, Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  // Date.UTC maps years 0..99 to 19xx: set the year separately.
  const d = new Date(local);
  d.setUTCFullYear(y);
  return Math.round(d.getTime() / 1000 - ts);
}

/** Abbreviations tzdata gives for (zone, offset); zones not listed print "+HH" / "+HHMM" like tzdata's numeric ones. */
const ABBR: Record<string, Record<number, string>> = {
  'Asia/Tokyo': { 32400: 'JST', 36000: 'JDT' },
  UTC: { 0: 'UTC' },
  'Etc/UTC': { 0: 'UTC' },
  GMT: { 0: 'GMT' },
  'America/New_York': { [-18000]: 'EST', [-14400]: 'EDT' },
  'America/Chicago': { [-21600]: 'CST', [-18000]: 'CDT' },
  'America/Denver': { [-25200]: 'MST', [-21600]: 'MDT' },
  'America/Los_Angeles': { [-28800]: 'PST', [-25200]: 'PDT' },
  'Europe/London': { 0: 'GMT', 3600: 'BST' },
  'Europe/Paris': { 3600: 'CET', 7200: 'CEST' },
  'Europe/Berlin': { 3600: 'CET', 7200: 'CEST' },
  'Asia/Seoul': { 32400: 'KST', 36000: 'KDT' },
  'Asia/Shanghai': { 28800: 'CST', 32400: 'CDT' },
  'Asia/Kolkata': { 19800: 'IST' },
  'Australia/Sydney': { 36000: 'AEST', 39600: 'AEDT' },
};

function numericAbbr(offset: number): string {
  const sign = offset < 0 ? '-' : '+';
  const a = Math.abs(offset);
  const hh = String(Math.floor(a / 3600)).padStart(2, '0');
  const mm = Math.floor(a / 60) % 60;
  return sign + hh + (mm ? String(mm).padStart(2, '0') : '');
}

/** 0001-01-01T00:00:00Z: every zone is still on its local mean time. */
const YEAR_ONE = -62135596800;

export function tzAbbr(ts: number, tz: string): string {
  const off = utcOffset(ts, tz);
  const named = ABBR[tz]?.[off];
  if (named !== undefined) return named;
  // Before a zone's first rule tzdata gives its local mean time, an offset in seconds, as "LMT" (D330).
  if (off % 60 !== 0 && off === utcOffset(YEAR_ONE, tz)) return 'LMT';
  return numericAbbr(off);
}

// London kept BST all year from 1968-10-27 to 1971-10-31 as its standard time (isdst = 0).
const LONDON_BST_STANDARD: [number, number] = [-37263600, 57722400];

/** PHP's `I`: whether DST is in effect. */
export function isDst(ts: number, tz: string): boolean {
  if (tz === 'Europe/London' && ts >= LONDON_BST_STANDARD[0] && ts < LONDON_BST_STANDARD[1]) return false;
  const off = utcOffset(ts, tz);
  const { y } = civilFromDays(Math.floor((ts + off) / 86400));
  const jan = utcOffset(daysFromCivil(y, 1, 1) * 86400, tz);
  const jul = utcOffset(daysFromCivil(y, 7, 1) * 86400, tz);
  return jan !== jul && off === Math.max(jan, jul);
}

/** Start of the offset period containing `ts` (the last transition at or before it), or null. */
function transitionBefore(ts: number, tz: string): number | null {
  const off = utcOffset(ts, tz);
  let lo: number;
  const step = 86400;
  // walk back until the offset differs (give up after ~2 years: no transition)
  for (let n = 0; ; n++) {
    const t = ts - step * (n + 1);
    if (utcOffset(t, tz) !== off) {
      lo = t;
      break;
    }
    if (n > 800) return null;
  }
  let hi = lo + step; // offset at hi equals off
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (utcOffset(mid, tz) === off) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * The instant of a local wall-clock time (`local` = the fields read as if they were UTC),
 * resolved like timelib's do_adjust_timezone: a time in a spring-forward gap uses the
 * offset from before the gap; an ambiguous time uses the offset in effect at `local`
 * read as UTC.
 */
export function localToInstant(local: number, tz: string): number {
  return local - localOffset(local, tz);
}

/** The offset localToInstant subtracts from `local`. */
export function localOffset(local: number, tz: string): number {
  const current = utcOffset(local, tz);
  const after = utcOffset(local - current, tz);
  if (current === after) return current;
  const transition = transitionBefore(local - current, tz);
  const inTransition =
    transition !== null && local - after >= transition + (current - after) && local - after < transition;
  return inTransition ? current : after;
}
