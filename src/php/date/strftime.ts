/**
 * PHP 8.2 strftime() in the C locale, as glibc formats it: flags `_ - 0 ^ #`, a field width,
 * the E and O modifiers (no eras or alternative digits in the C locale), unknown conversions
 * copied as written. PHP gives up (false) when the result would reach 4096 bytes, and returns
 * false for an empty result.
 *
 * `%s` is what glibc computes in a process whose TZ is UTC (PHP hands it the local fields
 * and the DST flag, and mktime() there takes an hour off for DST): the timestamp plus the
 * UTC offset, minus an hour in summer time. The oracle runs that way.
 */
import { DAY_NAMES, MONTH_NAMES, civilFromDays, daysFromCivil, isoWeek, weekday } from './civil.js';
import { isDst, tzAbbr, utcOffset } from './tz.js';
import { byteLength } from '../../value/bytes.js';

const MAX_RESULT = 4095;

class TooLong extends Error {}

/** The broken-down time a format reads; the zone abbreviation and DST flag only when asked for. */
class Tm {
  readonly y: number;
  readonly m: number;
  readonly d: number;
  readonly h: number;
  readonly i: number;
  readonly s: number;
  readonly days: number;
  /** `civil`: the local day's calendar date when the caller has it already (byDayAndTime). */
  constructor(
    readonly ts: number,
    readonly off: number,
    private readonly tz: string,
    civil?: { y: number; m: number; d: number },
  ) {
    // The calendar fields most formats read (%Y-%m-%d %H:%M), without fieldsOf's weekday and day
    // of the year (a second day count) and its object: those are made when a format asks.
    const local = ts + off;
    const days = Math.floor(local / 86400);
    const sec = local - days * 86400;
    const { y, m, d } = civil ?? civilFromDays(days);
    this.y = y;
    this.m = m;
    this.d = d;
    this.h = Math.floor(sec / 3600);
    this.i = Math.floor(sec / 60) % 60;
    this.s = sec % 60;
    this.days = days;
  }
  get wday(): number {
    return weekday(this.days);
  }
  get yday(): number {
    return this.days - daysFromCivil(this.y, 1, 1);
  }
  get abbr(): string {
    return tzAbbr(this.ts, this.tz);
  }
  get dst(): boolean {
    return isDst(this.ts, this.tz);
  }
}

interface Conv {
  pad: string; // '' (none given), '_', '-', '0'
  upper: boolean;
  swapCase: boolean;
  width: number;
}

/** glibc's add(): pads a piece to the width (zeros only with the 0 flag). */
function fit(s: string, c: Conv): string {
  if (c.width > MAX_RESULT) throw new TooLong();
  const delta = c.width - s.length;
  return delta > 0 ? (c.pad === '0' ? '0' : ' ').repeat(delta) + s : s;
}

/** glibc's DO_NUMBER / DO_NUMBER_SPACEPAD. */
function number(value: number, digits: number, c: Conv, spacePad = false): string {
  if (c.width === 0 && c.pad === '' && !spacePad && value >= 0) {
    // the common case (%Y, %m, %d...): zero-padded to the digits, nothing else
    const plain = String(value);
    return plain.length >= digits ? plain : '0'.repeat(digits - plain.length) + plain;
  }
  if (c.width > MAX_RESULT) throw new TooLong();
  let pad = c.pad;
  if (spacePad && pad !== '0' && pad !== '-') pad = '_';
  const want = Math.max(digits, c.width);
  const neg = value < 0;
  let s = String(Math.abs(value));
  if (neg) s = '-' + s;
  let width = c.width;
  if (pad !== '-') {
    const padding = want - s.length;
    if (padding > 0) {
      if (pad === '_') {
        s = ' '.repeat(padding) + s;
        width = width > padding ? width - padding : 0;
      } else {
        s = neg ? '-' + '0'.repeat(padding) + s.slice(1) : '0'.repeat(padding) + s;
        width = 0;
      }
    }
  }
  return fit(s, { ...c, pad, width });
}

/** Names: `^` upper-cases; `#` upper-cases names but lower-cases %p and %Z (and wins over `^`). */
function text(s: string, c: Conv, lowerOnSwap = false): string {
  if (c.swapCase && lowerOnSwap) s = s.toLowerCase();
  else if (c.upper || c.swapCase) s = s.toUpperCase();
  return fit(s, c);
}

function sub(fmt: string, tm: Tm, c: Conv): string {
  let s = renderPieces(parsed(fmt), tm);
  if (c.upper) s = s.toUpperCase();
  return fit(s, c);
}

/**
 * The conversions by character. `reject` lists the modifiers (E, O) that make the sequence a bad
 * format, copied as written; each is decided when a format is parsed, not per call.
 */
interface Conversion {
  reject: string;
  put(tm: Tm, c: Conv): string;
}
const conv = (reject: string, put: Conversion['put']): Conversion => ({ reject, put });
const h12 = (tm: Tm): number => (tm.h % 12 === 0 ? 12 : tm.h % 12);

const CONVERSIONS = new Map<string, Conversion>([
  ['a', conv('EO', (tm, c) => text(DAY_NAMES[tm.wday].slice(0, 3), c))],
  ['A', conv('EO', (tm, c) => text(DAY_NAMES[tm.wday], c))],
  ['b', conv('E', (tm, c) => text(MONTH_NAMES[tm.m - 1].slice(0, 3), c))],
  ['h', conv('E', (tm, c) => text(MONTH_NAMES[tm.m - 1].slice(0, 3), c))],
  ['B', conv('E', (tm, c) => text(MONTH_NAMES[tm.m - 1], c))],
  ['c', conv('O', (tm, c) => sub('%a %b %e %H:%M:%S %Y', tm, c))],
  ['C', conv('O', (tm, c) => number(Math.floor(tm.y / 100), 2, c))],
  ['d', conv('E', (tm, c) => number(tm.d, 2, c))],
  ['D', conv('EO', (tm, c) => sub('%m/%d/%y', tm, c))],
  ['e', conv('E', (tm, c) => number(tm.d, 2, c, true))],
  ['F', conv('EO', (tm, c) => sub('%Y-%m-%d', tm, c))],
  ['H', conv('E', (tm, c) => number(tm.h, 2, c))],
  ['I', conv('E', (tm, c) => number(h12(tm), 2, c))],
  ['j', conv('E', (tm, c) => number(tm.yday + 1, 3, c))],
  ['k', conv('E', (tm, c) => number(tm.h, 2, c, true))],
  ['l', conv('E', (tm, c) => number(h12(tm), 2, c, true))],
  ['m', conv('E', (tm, c) => number(tm.m, 2, c))],
  ['M', conv('E', (tm, c) => number(tm.i, 2, c))],
  ['n', conv('', (_tm, c) => fit('\n', c))],
  ['t', conv('', (_tm, c) => fit('\t', c))],
  ['P', conv('', (tm, c) => fit(tm.h >= 12 ? 'pm' : 'am', c))],
  ['p', conv('', (tm, c) => text(tm.h >= 12 ? 'PM' : 'AM', c, true))],
  ['r', conv('', (tm, c) => sub('%I:%M:%S %p', tm, c))],
  ['R', conv('', (tm, c) => sub('%H:%M', tm, c))],
  ['s', conv('', (tm, c) => number(tm.ts + tm.off - (tm.dst ? 3600 : 0), 1, c))],
  ['S', conv('E', (tm, c) => number(tm.s, 2, c))],
  ['T', conv('', (tm, c) => sub('%H:%M:%S', tm, c))],
  ['u', conv('', (tm, c) => number(((tm.wday + 6) % 7) + 1, 1, c))],
  ['U', conv('E', (tm, c) => number(Math.floor((tm.yday + 7 - tm.wday) / 7), 2, c))],
  ['V', conv('E', (tm, c) => number(isoWeek(tm.days).week, 2, c))],
  ['g', conv('E', (tm, c) => number(((isoWeek(tm.days).year % 100) + 100) % 100, 2, c))],
  ['G', conv('E', (tm, c) => number(isoWeek(tm.days).year, 1, c))],
  ['w', conv('E', (tm, c) => number(tm.wday, 1, c))],
  ['W', conv('E', (tm, c) => number(Math.floor((tm.yday + 7 - ((tm.wday + 6) % 7)) / 7), 2, c))],
  ['x', conv('O', (tm, c) => sub('%m/%d/%y', tm, c))],
  ['X', conv('O', (tm, c) => sub('%H:%M:%S', tm, c))],
  ['y', conv('', (tm, c) => number(((tm.y % 100) + 100) % 100, 2, c))],
  ['Y', conv('O', (tm, c) => number(tm.y, 1, c))],
  // the sign is its own padded piece, then the number (glibc's add(1, sign); DO_NUMBER(4, ...))
  [
    'z',
    conv('', (tm, c) => {
      const a = Math.abs(tm.off);
      return fit(tm.off < 0 ? '-' : '+', c) + number(Math.floor(a / 3600) * 100 + (Math.floor(a / 60) % 60), 4, c);
    }),
  ],
  ['Z', conv('', (tm, c) => text(tm.abbr, c, true))],
  ['%', conv('EO', (_tm, c) => fit('%', c))],
]);

/** A `%` sequence as parsed: the conversion, its flags and width, and its text as written. */
interface Sequence {
  /** The conversion, or null for a bad sequence. */
  put: Conversion['put'] | null;
  c: Conv;
  /** What a bad sequence prints: the text back to the nearest '%' (a rejected "%E%" prints "%"). */
  raw: string;
  /** What it prints depends on the local day alone (a bad sequence prints its text: true). */
  dayOnly: boolean;
  /** What it prints depends on the local time of day alone (Tm's h, i and s). */
  timeOnly: boolean;
}

/**
 * The conversions whose text is a function of the local day number alone (Tm's `days`: the
 * calendar date, the weekday, the day of the year, the ISO week): not the time of day, the UTC
 * offset (%s, %z) or the zone's name and DST flag (%Z).
 */
const DAY_ONLY = new Set('aAbhBCdDeFgGjmnutUVwWxyY%');

/** The conversions whose text is a function of the local time of day alone (Tm's h, i and s). */
const TIME_ONLY = new Set('HIklMpPRrSTX');

/** Parsed formats: templates use a handful, parsed once each (bounded: formats come from templates). */
const parsedFormats = new Map<string, (string | Sequence)[]>();

function parseFormat(format: string): (string | Sequence)[] {
  const pieces: (string | Sequence)[] = [];
  let k = 0;
  while (k < format.length) {
    const pct = format.indexOf('%', k);
    if (pct < 0) {
      pieces.push(format.slice(k));
      break;
    }
    if (pct > k) pieces.push(format.slice(k, pct));
    let j = pct + 1;
    const c: Conv = { pad: '', upper: false, swapCase: false, width: -1 };
    for (; ; j++) {
      const f = format[j];
      if (f === '_' || f === '-' || f === '0') c.pad = f;
      else if (f === '^') c.upper = true;
      else if (f === '#') c.swapCase = true;
      else break;
    }
    if (format[j] >= '0' && format[j] <= '9') {
      let w = 0;
      while (format[j] >= '0' && format[j] <= '9') {
        w = Math.min(w * 10 + Number(format[j]), 1e9);
        j++;
      }
      c.width = w;
    }
    let mod = '';
    if (format[j] === 'E' || format[j] === 'O') mod = format[j++];
    const ch = j < format.length ? format[j] : '';
    if (c.width < 0) c.width = 0;
    const end = ch === '' ? format.length : j + 1;
    const known = ch === '' ? undefined : CONVERSIONS.get(ch);
    const put = known && !(mod !== '' && known.reject.includes(mod)) ? known.put : null;
    const dayOnly = put === null || DAY_ONLY.has(ch);
    const timeOnly = put !== null && TIME_ONLY.has(ch);
    pieces.push({ put, c, raw: format.slice(format.lastIndexOf('%', end - 1), end), dayOnly, timeOnly });
    k = end;
  }
  return pieces;
}

function parsed(format: string): (string | Sequence)[] {
  let pieces = parsedFormats.get(format);
  if (!pieces) {
    pieces = parseFormat(format);
    if (parsedFormats.size >= 256) parsedFormats.clear();
    parsedFormats.set(format, pieces);
  }
  return pieces;
}

function renderPieces(pieces: readonly (string | Sequence)[], tm: Tm): string {
  let out = '';
  for (const p of pieces) {
    if (typeof p === 'string') out += p;
    else {
      // a bad format: the sequence as written, padded to the width
      out += p.put !== null ? p.put(tm, p.c) : fit(p.raw, p.c);
    }
    if (out.length > MAX_RESULT) throw new TooLong();
  }
  return out;
}

/** strftime(format, ts) in `tz`; false where PHP returns false. */
export function phpStrftime(format: string, ts: number, tz: string): string | false {
  if (format === '') return false;
  return finish(parsed(format), new Tm(ts, utcOffset(ts, tz), tz));
}

/** Local days whose text a day-only format keeps (strftimeFor): a few hundred short strings at most. */
const MAX_DAYS_KEPT = 256;

/**
 * phpStrftime with its format parsed once (a format a template wrote as a literal). A format
 * whose every conversion reads the local day alone (`%Y年%m月%d日`, `%Y-%m-%d`, `%b %e, %Y`) keeps
 * its text per local day number: a list of items dated over a few days formats each day once
 * (~50 ns for the offset and a lookup against ~200-300 for the fields and the pieces, D272). The
 * day number is the zone's local one, so the text is the same whatever zone gave it. The kept
 * map is written whole by one `set` per entry (a cut slice leaves none half made, D140) and
 * cleared when full.
 */
export function strftimeFor(format: string): (ts: number, tz: string) => string | false {
  if (format === '') return () => false;
  const pieces = parseFormat(format);
  if (!pieces.every((p) => typeof p === 'string' || p.dayOnly)) {
    if (pieces.every((p) => typeof p === 'string' || p.dayOnly || p.timeOnly)) return byDayAndTime(pieces);
    return (ts, tz) => finish(pieces, new Tm(ts, utcOffset(ts, tz), tz));
  }
  const byDay = new Map<number, string | false>();
  return (ts, tz) => {
    const off = utcOffset(ts, tz);
    const day = Math.floor((ts + off) / 86400);
    let text = byDay.get(day);
    if (text === undefined) {
      text = finish(pieces, new Tm(ts, off, tz));
      if (byDay.size >= MAX_DAYS_KEPT) byDay.clear();
      byDay.set(day, text);
    }
    return text;
  };
}

/** A local day's part of a format of day-only and time-of-day conversions (byDayAndTime). */
interface DayPart {
  /** The calendar date of the local day. */
  civil: { y: number; m: number; d: number };
  /** The format with each run of text and day-only conversions printed (false: one was too wide). */
  runs: readonly (string | Sequence)[] | false;
}

/** Slots of a date-and-time format's table of local days (byDayAndTime). */
const DAY_SLOTS = 64;

/**
 * strftimeFor's format whose conversions read the local day or the local time of day, nothing
 * else (`%Y年%m月%d日 %H時%M分`, `%m月%d日 (%H:%M)`): from a local day's second call on, its date
 * and its runs of text and day-only conversions are kept, and a call prints only the time-of-day
 * conversions, from the seconds into the local day. Exact for D272's reason: both parts are
 * functions of the local wall-clock time, which the zone's offset gives for the call's instant
 * (%s, %z and %Z read the instant, the offset or the zone, and take the general path).
 *
 * The days are kept in a table of DAY_SLOTS slots by the day's low bits, not a Map: a list whose
 * every item falls on a day of its own then costs a slot's two writes per call (a Map's `set` and
 * its growth after each clear doubled such a call). A slot's part is only ever the part of the day
 * the slot names: a new day first empties the part, then names itself, so a render cut between
 * two writes (D140) leaves no part under another day's name.
 */
function byDayAndTime(pieces: readonly (string | Sequence)[]): (ts: number, tz: string) => string | false {
  const days = new Float64Array(DAY_SLOTS).fill(NaN);
  const parts: (DayPart | null)[] = new Array<DayPart | null>(DAY_SLOTS).fill(null);
  return (ts, tz) => {
    const off = utcOffset(ts, tz);
    const day = Math.floor((ts + off) / 86400);
    const k = day & (DAY_SLOTS - 1);
    const part = parts[k] ?? null;
    if (part !== null && days[k] === day)
      return part.runs === false ? false : finish(part.runs, new Tm(ts, off, tz, part.civil));
    const tm = new Tm(ts, off, tz);
    if (days[k] === day) {
      parts[k] = { civil: { y: tm.y, m: tm.m, d: tm.d }, runs: dayRuns(pieces, tm) };
    } else {
      parts[k] = null;
      days[k] = day;
    }
    return finish(pieces, tm);
  };
}

/**
 * `pieces` with every run of text and day-only conversions printed as one string, the time-of-day
 * conversions left as they are; false where a conversion is too wide (finish answers false then
 * too, whatever the other pieces print). The length check stays finish's: a run is at least as
 * long as each of its prefixes.
 */
function dayRuns(pieces: readonly (string | Sequence)[], tm: Tm): (string | Sequence)[] | false {
  const out: (string | Sequence)[] = [];
  let run: string | null = null;
  try {
    for (const p of pieces) {
      if (typeof p !== 'string' && p.timeOnly) {
        if (run !== null) out.push(run);
        run = null;
        out.push(p);
      } else {
        const text = typeof p === 'string' ? p : p.put !== null ? p.put(tm, p.c) : fit(p.raw, p.c);
        run = run === null ? text : run + text;
      }
    }
  } catch (e) {
    if (e instanceof TooLong) return false;
    throw e;
  }
  if (run !== null) out.push(run);
  return out;
}

function finish(pieces: readonly (string | Sequence)[], tm: Tm): string | false {
  try {
    const s = renderPieces(pieces, tm);
    // a UTF-16 unit is at most 3 bytes of UTF-8: short results need no byte count
    return s === '' || (s.length * 3 > MAX_RESULT && byteLength(s) > MAX_RESULT) ? false : s;
  } catch (e) {
    if (e instanceof TooLong) return false;
    throw e;
  }
}
