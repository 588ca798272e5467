/**
 * PHP 8.2 strtotime(), modelled on timelib's scanner (parse_date.re): at each position the
 * longest matching rule wins (the first listed on a tie), each rule sets absolute fields,
 * relative amounts or a zone, and the result is then filled from the base time, adjusted
 * (weekday, relative units, first/last day of, overflow such as Feb 30 → Mar 1) and
 * converted from wall-clock time in the zone.
 *
 * Not supported (return false although PHP may accept them): Common Log Format, years outside 0..9999,
 * time zone abbreviations other than those listed in ZONE_ABBR below, and roman-numeral
 * months.
 */
import type { PhpInt } from '../../value/value.js';
import { intOf } from '../../value/int64.js';
import { civilFromDays, daysFromCivil, fieldsOf, weekday } from './civil.js';
import { isValidTimezone, localOffset, utcOffset } from './tz.js';
import { countMatches } from '../../value/count-matches.js';

const MONTHS: Record<string, number> = {
  january: 1,
  february: 2,
  march: 3,
  april: 4,
  may: 5,
  june: 6,
  july: 7,
  august: 8,
  september: 9,
  october: 10,
  november: 11,
  december: 12,
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const DAYS: Record<string, number> = {
  sunday: 0,
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
  sun: 0,
  mon: 1,
  tue: 2,
  wed: 3,
  thu: 4,
  fri: 5,
  sat: 6,
};
const RELTEXT: Record<string, number> = {
  first: 1,
  next: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eight: 8,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  last: -1,
  previous: -1,
  this: 0,
};
/** Zone abbreviations: [offset seconds without DST, is DST]. Single letters are military zones. */
const ZONE_ABBR: Record<string, [number, boolean]> = {
  utc: [0, false],
  gmt: [0, false],
  z: [0, false],
  ut: [0, false],
  wet: [0, false],
  jst: [32400, false],
  kst: [32400, false],
  est: [-18000, false],
  edt: [-18000, true],
  cst: [-21600, false],
  cdt: [-21600, true],
  mst: [-25200, false],
  mdt: [-25200, true],
  pst: [-28800, false],
  pdt: [-28800, true],
  bst: [0, true],
  cet: [3600, false],
  cest: [3600, true],
  eet: [7200, false],
  eest: [7200, true],
  ist: [7200, false],
};
for (let k = 0; k < 26; k++) {
  const c = String.fromCharCode(97 + k);
  if (c === 'j') continue;
  const h = k < 9 ? k + 1 : k < 13 ? k : k < 25 ? -(k - 12) : 0;
  ZONE_ABBR[c] ??= [h * 3600, false];
}

// Building blocks, after parse_date.re.
const hour24 = '(?:2[0-4]|[01]?[0-9])';
const hour24lz = '(?:2[0-4]|[01][0-9])';
const hour12 = '(?:1[0-2]|0?[1-9])';
const minute = '[0-5]?[0-9]';
const minutelz = '[0-5][0-9]';
const second = '(?:60|[0-5]?[0-9])';
const secondlz = '(?:60|[0-5][0-9])';
const meridian = '(?:[ap]\\.?m\\.?)(?=[\\t ]|$)';
const daysuf = '(?:st|nd|rd|th)';
const month = '(?:1[0-2]|0?[0-9])';
const day = `(?:3[01]|[0-2]?[0-9])${daysuf}?`;
const year = '[0-9]{1,4}';
const year2 = '[0-9]{2}';
const year4 = '[0-9]{4}';
const monthlz = '(?:0[0-9]|1[0-2])';
const daylz = '(?:0[0-9]|[12][0-9]|3[01])';
const dayfull = 'sunday|monday|tuesday|wednesday|thursday|friday|saturday';
const dayabbr = 'sun|mon|tue|wed|thu|fri|sat';
// "weekday(s)" as a day name is Monday: timelib reads the unit's multiplier (TIMELIB_SPECIAL_WEEKDAY = 1) as the day
const daytext = `(?:weekdays|weekday|${dayfull
  .split('|')
  .map((d) => d + 's')
  .join('|')}|${dayfull}|${dayabbr})`;
const monthtext =
  '(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)';
const reltextnumber = 'first|second|third|fourth|fifth|sixth|seventh|eighth|eight|ninth|tenth|eleventh|twelfth';
const reltexttext = 'next|last|previous|this';
// (JavaScript alternation takes the first alternative that matches: longer words go first)
const reltextunit = `(?:weekdays|weekday|(?:millisecond|microsecond|msec|\u00b5sec|usec)s?|ms|\u00b5s|(?:second|sec|minute|min|hour|day|fortnight|forthnight|month|year)s?|weeks|${daytext})`;
const space = '[ \\t]+';
const tzcorrection = `(?:GMT)?[+-](?:${hour24lz}:${minutelz}:${secondlz}|${hour24lz}${minutelz}${secondlz}|${hour24}:?(?:${minute})?)`;
const tzname = '[a-z]+(?:[_/-][a-z]+)+|\\(?[a-z]{1,6}\\)?';

interface State {
  y?: number;
  m?: number;
  d?: number;
  h?: number;
  i?: number;
  s?: number;
  haveTime: boolean;
  haveDate: boolean;
  /** Zones given so far (TIMELIB_HAVE_TZ's count): the second is ignored, a third fails. */
  zones: number;
  /** timelib's have_time reaching 2: a 4-digit number after a time was read as the year. */
  gnuYear?: boolean;
  zone?: { offset: number } | { id: string };
  /**
   * Relative amounts. Seconds are kept exactly as whole days `sd` plus `s` in 0..86399: "@ts"
   * reaches 2^63, beyond a double's exact integers, and timelib fails when its int64 sum
   * of relative seconds overflows.
   */
  rel: { y: number; m: number; d: number; h: number; i: number; s: number; sd: number; us: number };
  /** Microseconds of the parsed time ("12:34:56.789"): they matter only when relative microseconds carry past a second. */
  us: number;
  weekday?: { day: number; behavior: number };
  /**
   * timelib's one "special" relative: the nth weekday of a month (resolved early, from rel.d)
   * or a count of business days (resolved last); a later one replaces an earlier one.
   */
  special?: { type: 'first' | 'last' } | { type: 'weekday'; amount: number };
  firstLastDayOf?: 'first' | 'last';
}

class Fail extends Error {}

function haveTime(st: State): void {
  if (st.haveTime) throw new Fail('Double time specification');
  st.haveTime = true;
  st.h = st.i = st.s = st.us = 0;
}
function unhaveTime(st: State): void {
  st.haveTime = false;
  st.gnuYear = false;
  st.h = st.i = st.s = st.us = 0;
}
function haveDate(st: State): void {
  if (st.haveDate) throw new Fail('Double date specification');
  st.haveDate = true;
}

/** Digit runs of a token, in order (timelib_get_nr skips everything else). */
function numbers(tok: string): string[] {
  return tok.match(/[0-9]+/g) ?? [];
}

function processYear(digits: string): number {
  const y = Number(digits);
  return digits.length < 4 && y < 100 ? y + (y < 70 ? 2000 : 1900) : y;
}

function monthOf(tok: string): number {
  const m = new RegExp(monthtext, 'i').exec(tok)!;
  return MONTHS[m[0].toLowerCase()];
}

function meridianAdjust(h: number, tok: string): number {
  const pm = /p\.?m\.?\s*$/i.test(tok.trim());
  if (h === 12) return pm ? 12 : 0;
  return pm ? h + 12 : h;
}

function setRelative(st: State, amount: number, unitText: string, behavior: number, keepTime: boolean): void {
  const u = unitText.toLowerCase();
  if (u === 'weekday' || u === 'weekdays') {
    if (!keepTime) unhaveTime(st);
    st.special = { type: 'weekday', amount };
    return;
  }
  const dayNum = DAYS[u] ?? DAYS[u.replace(/s$/, '')];
  if (dayNum !== undefined && !/^(sec|second|min|minute|hour|day|fortnight|forthnight|month|year|week)s?$/.test(u)) {
    if (!keepTime) unhaveTime(st);
    st.rel.d += (amount > 0 ? amount - 1 : amount) * 7;
    st.weekday = { day: dayNum, behavior };
    return;
  }
  const base = u.replace(/s$/, '');
  // the 'i' flag folds µ with the Greek mu, which timelib (ASCII case-folding) does not
  if (/[\u039c\u03bc]/.test(unitText)) throw new Fail('unknown unit');
  switch (base) {
    case 'm':
    case 'msec':
    case 'millisecond':
      st.rel.us += amount * 1000;
      break;
    case '\u00b5':
    case '\u00b5sec':
    case 'usec':
    case 'microsecond':
      st.rel.us += amount;
      break;
    case 'sec':
    case 'second':
      addSeconds(st.rel, 0, amount);
      break;
    case 'min':
    case 'minute':
      st.rel.i += amount;
      break;
    case 'hour':
      st.rel.h += amount;
      break;
    case 'day':
      st.rel.d += amount;
      break;
    case 'week':
      st.rel.d += amount * 7;
      break;
    case 'fortnight':
    case 'forthnight':
      st.rel.d += amount * 14;
      break;
    case 'month':
      st.rel.m += amount;
      break;
    case 'year':
      st.rel.y += amount;
      break;
    default:
      throw new Fail('unknown unit');
  }
}

const INT64_MAX_DAYS = 106751991167300; // 2^63 - 1 = INT64_MAX_DAYS * 86400 + 55807
const INT64_MIN_DAYS = -106751991167301; // -2^63 = INT64_MIN_DAYS * 86400 + 30592

/** rel.s += days * 86400 + secs, failing as timelib does when the sum leaves int64. */
function addSeconds(rel: State['rel'], days: number, secs: number): void {
  rel.s += secs;
  const q = Math.floor(rel.s / 86400);
  rel.s -= q * 86400;
  rel.sd += days + q;
  if (
    rel.sd > INT64_MAX_DAYS ||
    (rel.sd === INT64_MAX_DAYS && rel.s > 55807) ||
    rel.sd < INT64_MIN_DAYS ||
    (rel.sd === INT64_MIN_DAYS && rel.s < 30592)
  ) {
    throw new Fail('Number out of range');
  }
}

function relTextAmount(word: string): [number, number] {
  const w = word.toLowerCase();
  return [RELTEXT[w], w === 'this' ? 1 : 0];
}

/**
 * TIMELIB_HAVE_TZ: true when this zone is to be read. A second zone is only a warning in PHP
 * 8.2 (it is skipped), a third an error. (The soap form's own offset does not count.)
 */
function haveZone(st: State): boolean {
  if (st.zones >= 2) throw new Fail('Double timezone specification');
  st.zones++;
  return st.zones === 1;
}

function setZone(st: State, tok: string): void {
  const t = tok.replace(/[()]/g, '');
  // hhmmss and hh:mm:ss offsets (timelib_parse_tz_cor's 6- and 8-character forms)
  const withSeconds = /^(?:GMT)?([+-])([0-9]{2}):?([0-9]{2}):?([0-9]{2})$/i.exec(t);
  if (withSeconds && (t.match(/:/g)?.length ?? 0) !== 1) {
    const [, sign, h, m, s] = withSeconds;
    st.zone = { offset: (Number(h) * 3600 + Number(m) * 60 + Number(s)) * (sign === '-' ? -1 : 1) };
    return;
  }
  const corr = /^(?:GMT)?([+-])([0-9]{1,2})(?::?([0-9]{1,2}))?$/i.exec(t);
  if (corr) {
    const digits = corr[2] + (corr[3] ?? '');
    let h: number;
    let m: number;
    // timelib: "+9", "+09", "+0930", "+09:30"; 3-4 digit forms are hhmm
    if (t.includes(':')) {
      h = Number(corr[2]);
      m = Number(corr[3] ?? 0);
    } else if (digits.length <= 2) {
      h = Number(digits);
      m = 0;
    } else {
      h = Number(digits.slice(0, digits.length - 2));
      m = Number(digits.slice(-2));
    }
    const off = (h * 3600 + m * 60) * (corr[1] === '-' ? -1 : 1);
    st.zone = { offset: off };
    return;
  }
  const abbr = ZONE_ABBR[t.toLowerCase()];
  if (abbr) {
    st.zone = { offset: abbr[0] + (abbr[1] ? 3600 : 0) };
    return;
  }
  if (t.includes('/') && isValidTimezone(t)) {
    st.zone = { id: t };
    return;
  }
  throw new Fail('The timezone could not be found in the database');
}

type Action = (st: State, tok: string) => void;

function timeAction(st: State, tok: string): void {
  haveTime(st);
  const n = numbers(tok);
  st.h = Number(n[0]);
  st.i = n[1] !== undefined ? Number(n[1]) : 0;
  st.s = n[2] !== undefined ? Number(n[2]) : 0;
  if (n[3] !== undefined) st.us = fraction(n[3]);
}

/** timelib_get_frac_nr: the digits after the point as microseconds (beyond six they are rounded away by the double). */
function fraction(digits: string): number {
  return Math.floor(Number('0.' + digits) * 1e6);
}

function time12Action(st: State, tok: string): void {
  haveTime(st);
  const n = numbers(tok);
  st.h = meridianAdjust(Number(n[0]), tok);
  st.i = n[1] !== undefined ? Number(n[1]) : 0;
  st.s = n[2] !== undefined ? Number(n[2]) : 0;
}

/** month text, day, optional year (datetextual | datenoyear) */
function monthDayYear(st: State, tok: string): void {
  haveDate(st);
  st.m = monthOf(tok);
  const n = numbers(tok);
  st.d = Number(n[0]);
  if (n[1] !== undefined) st.y = processYear(n[1]);
}

const RULES: [RegExp, Action][] = [];
function rule(re: string, action: Action): void {
  RULES.push([new RegExp(re, 'iy'), action]);
}

rule('yesterday', (st) => {
  unhaveTime(st);
  st.rel.d += -1;
});
rule('now', () => {});
rule('noon', (st) => {
  unhaveTime(st);
  haveTime(st);
  st.h = 12;
});
rule('midnight|today', (st) => unhaveTime(st));
rule('tomorrow', (st) => {
  unhaveTime(st);
  st.rel.d += 1;
});
rule('@-?[0-9]+(?:\\.[0-9]{0,6})?', (st, tok) => {
  // "@ts" or "@ts.frac": 1970-01-01 00:00:00 UTC plus ts seconds (and the fraction, negative with ts)
  const point = tok.indexOf('.');
  const frac = point >= 0 ? tok.slice(point + 1) : undefined;
  if (frac === '') throw new Fail('Unexpected character');
  if (point >= 0) tok = tok.slice(0, point);
  // TIMELIB_UNHAVE_DATE, TIMELIB_UNHAVE_TIME, then TIMELIB_HAVE_TZ, which leaves the action
  // when a zone was already given: what remains is the date 0000-00-00 ("UTC @0" is -0001-11-30)
  st.haveDate = false;
  st.y = st.m = st.d = 0;
  unhaveTime(st);
  if (!haveZone(st)) return;
  if (frac !== undefined) st.rel.us = Number(frac) * 10 ** (6 - frac.length) * (tok[1] === '-' ? -1 : 1);
  st.y = 1970;
  st.m = 1;
  st.d = 1;
  // timelib converts at most 24 digits of the token (the rest is dropped) with strtoll
  const negative = tok[1] === '-';
  const digits = tok.slice(negative ? 2 : 1).slice(0, 24);
  const n = BigInt(digits) * (negative ? -1n : 1n);
  if (n > 0x7fffffffffffffffn || n < -0x8000000000000000n) throw new Fail('Number out of range');
  const days = n / 86400n;
  addSeconds(st.rel, Number(days), Number(n - days * 86400n));
  st.zone = { offset: 0 };
});
rule('first day of|last day of', (st, tok) => {
  st.firstLastDayOf = /^l/i.test(tok) ? 'last' : 'first';
});
// "back of 7pm" is 19:15, "front of 7pm" 18:45 (hour - 1, so "front of 0" is 23:45 the day before)
rule(`(?:back|front) of ${hour24}(?:[ \\t]*${meridian})?`, (st, tok) => {
  unhaveTime(st);
  haveTime(st);
  const n = Number(numbers(tok)[0]);
  // timelib tests for a lower-case 'b': "Back of 7pm" is read as "front of"
  const back = tok[0] === 'b';
  let h = back ? n : n - 1;
  st.i = back ? 15 : 45;
  // timelib_meridian on the hour already moved: 12am is 0, pm adds 12 unless the hour is 12
  if (/m\.?$/i.test(tok)) {
    const pm = /p\.?m\.?$/i.test(tok);
    if (!pm && h === 12) h = 0;
    else if (pm && h !== 12) h += 12;
  }
  st.h = h;
});
rule(`(?:${reltextnumber}|${reltexttext})${space}${daytext}${space}of`, (st, tok) => {
  const words = tok.split(/[ \t]+/);
  const [amount, behavior] = relTextAmount(words[0]);
  if (amount > 0) {
    st.special = { type: 'first' };
    setRelative(st, amount, words[1], 1, false);
  } else {
    st.special = { type: 'last' };
    setRelative(st, amount, words[1], behavior, false);
  }
});
rule(
  `${hour12}[ \\t]*${meridian}|${hour12}[:.]${minute}[ \\t]*${meridian}|${hour12}[:.]${minute}[:.]${second}[ \\t]*${meridian}`,
  time12Action,
);
rule(`t?${hour24}[:.]${minute}(?:[:.]${second}(?:\\.[0-9]+)?)?`, timeAction);
rule(`t?${hour24lz}${minutelz}`, (st, tok) => {
  // gnunocolon: "2024" alone is 20:24; after a time it is the year ("7pm 2024"), once
  const d = tok.replace(/^t/i, '');
  if (st.haveTime) {
    if (st.gnuYear) throw new Fail('Double time specification');
    st.gnuYear = true;
    st.y = Number(d);
    return;
  }
  haveTime(st);
  st.h = Number(d.slice(0, 2));
  st.i = Number(d.slice(2, 4));
});
rule(`t?${hour24lz}${minutelz}${secondlz}`, (st, tok) => {
  haveTime(st);
  const d = tok.replace(/^t/i, '');
  st.h = Number(d.slice(0, 2));
  st.i = Number(d.slice(2, 4));
  st.s = Number(d.slice(4, 6));
});
rule(`${month}/${day}(?:/${year})?`, (st, tok) => {
  haveDate(st);
  const n = numbers(tok);
  st.m = Number(n[0]);
  st.d = Number(n[1]);
  if (n[2] !== undefined) st.y = processYear(n[2]);
});
const ymd: Action = (st, tok) => {
  haveDate(st);
  const n = numbers(tok);
  st.y = processYear(n[0]);
  st.m = Number(n[1]);
  st.d = Number(n[2]);
};
rule(`[+-]?${year4}-${monthlz}-${daylz}|${year4}/${monthlz}/${daylz}/?|${year4}/${month}/${day}`, ymd);
rule(`${year2}-${monthlz}-${daylz}`, ymd);
rule(`${year4}-${month}`, (st, tok) => {
  haveDate(st);
  const n = numbers(tok);
  st.y = Number(n[0]);
  st.m = Number(n[1]);
  st.d = 1;
});
rule(`${year}-${month}-${day}`, ymd);
rule(`${day}[ \\t.-]*${monthtext}[ \\t.-]*${year}`, (st, tok) => {
  haveDate(st);
  st.m = monthOf(tok);
  const n = numbers(tok);
  st.d = Number(n[0]);
  st.y = processYear(n[n.length - 1]);
});
rule(`${day}[.\\t-]${month}[.-]${year4}`, (st, tok) => {
  haveDate(st);
  const n = numbers(tok);
  st.d = Number(n[0]);
  st.m = Number(n[1]);
  st.y = Number(n[2]);
});
rule(`${day}[.\\t]${month}\\.${year2}`, (st, tok) => {
  haveDate(st);
  const n = numbers(tok);
  st.d = Number(n[0]);
  st.m = Number(n[1]);
  st.y = processYear(n[2]);
});
rule(`${monthtext}[ .\\t-]*${year4}`, (st, tok) => {
  haveDate(st);
  st.m = monthOf(tok);
  st.y = Number(numbers(tok)[0]);
  st.d = 1;
});
rule(`${year4}[ .\\t-]*${monthtext}`, (st, tok) => {
  haveDate(st);
  st.m = monthOf(tok);
  st.y = Number(numbers(tok)[0]);
  st.d = 1;
});
rule(`${monthtext}[ .\\t-]*${day}[,.stndrh\\t ]*${year}`, monthDayYear);
rule(`${monthtext}[ .\\t-]*${day}(?:[,.stndrh\\t ]+|$)`, monthDayYear);
rule(`${day}[ .\\t-]*${monthtext}`, (st, tok) => {
  haveDate(st);
  st.m = monthOf(tok);
  st.d = Number(numbers(tok)[0]);
});
rule(`${year4}${monthlz}${daylz}`, (st, tok) => {
  haveDate(st);
  st.y = Number(tok.slice(0, 4));
  st.m = Number(tok.slice(4, 6));
  st.d = Number(tok.slice(6, 8));
});
rule(`${year4}-${month}-${day}t${hour24}:${minute}:${second}`, (st, tok) => {
  // wddx / soap-like ISO 8601 date and time
  haveDate(st);
  haveTime(st);
  const n = numbers(tok);
  st.y = Number(n[0]);
  st.m = Number(n[1]);
  st.d = Number(n[2]);
  st.h = Number(n[3]);
  st.i = Number(n[4]);
  st.s = Number(n[5]);
});
// soap: ISO 8601 with a fraction (required here) and an optional offset; the fraction is
// microseconds, which a whole-second timestamp drops
rule(`${year4}-${monthlz}-${daylz}t${hour24lz}:${minutelz}:${secondlz}\\.[0-9]+(?:${tzcorrection})?`, (st, tok) => {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})t([0-9]{2}):([0-9]{2}):([0-9]{2})\.[0-9]+(.*)$/i.exec(tok)!;
  haveDate(st);
  haveTime(st);
  [st.y, st.m, st.d, st.h, st.i, st.s] = m.slice(1, 7).map(Number);
  st.us = fraction(/\.([0-9]+)/.exec(tok)![1]);
  if (m[7] !== '') setZone(st, m[7]);
});
// exif: "2024:06:05 12:34:56"
rule(`${year4}:${monthlz}:${daylz} ${hour24lz}:${minutelz}:${secondlz}`, (st, tok) => {
  haveDate(st);
  haveTime(st);
  [st.y, st.m, st.d, st.h, st.i, st.s] = numbers(tok).map(Number);
});
const dayofyear = '(?:00[1-9]|0[1-9][0-9]|[12][0-9][0-9]|3[0-5][0-9]|36[0-6])';
const weekofyear = '(?:0[1-9]|[1-4][0-9]|5[0-3])';
// pgydotd: year and day of the year ("2024.153"), read as January 153rd
rule(`${year4}[.-]?${dayofyear}`, (st, tok) => {
  haveDate(st);
  st.y = Number(tok.slice(0, 4));
  st.d = Number(tok.slice(-3));
  st.m = 1;
});
// isoweekday / isoweek: January 1st plus the days to that ISO week's day (0 and 7 are Sunday)
const isoWeek: Action = (st, tok) => {
  const m = /^([0-9]{4})-?w([0-9]{2})-?([0-7])?$/i.exec(tok)!;
  haveDate(st);
  const y = Number(m[1]);
  st.y = y;
  st.m = 1;
  st.d = 1;
  const dow = weekday(daysFromCivil(y, 1, 1));
  st.rel.d += -(dow > 4 ? dow - 7 : dow) + (Number(m[2]) - 1) * 7 + (m[3] === undefined ? 1 : Number(m[3]));
};
rule(`${year4}-?w${weekofyear}-?[0-7]`, isoWeek);
rule(`${year4}-?w${weekofyear}`, isoWeek);
// year4: four digits that are no time ("1999": 19:99 is none) are the year (gnunocolon wins a tie)
rule(year4, (st, tok) => {
  st.y = Number(tok);
});
rule('ago', (st) => {
  const r = st.rel;
  r.y = -r.y;
  r.m = -r.m;
  r.d = -r.d;
  r.h = -r.h;
  r.i = -r.i;
  // (timelib's "ago" leaves relative microseconds as they are: "500 ms ago" is now)
  const [sd, s] = [r.sd, r.s];
  r.sd = r.s = 0;
  addSeconds(r, -sd, -s);
  if (st.weekday) {
    st.weekday.day = -st.weekday.day;
    if (st.weekday.day === 0) st.weekday.day = -7;
  }
  if (st.special?.type === 'weekday') st.special.amount = -st.special.amount;
});
rule(daytext, (st, tok) => {
  unhaveTime(st);
  const day = DAYS[tok.toLowerCase()] ?? DAYS[tok.toLowerCase().replace(/s$/, '')] ?? 1;
  const behavior = st.weekday?.behavior === 2 ? 2 : 1;
  st.weekday = { day, behavior };
});
rule(`(?:${reltexttext})${space}week`, (st, tok) => {
  const words = tok.split(/[ \t]+/);
  const [amount, behavior] = relTextAmount(words[0]);
  setRelative(st, amount, 'week', behavior, false);
  if (st.weekday) st.weekday.behavior = 2;
  else st.weekday = { day: 1, behavior: 2 };
});
rule(`(?:${reltextnumber}|${reltexttext})${space}${reltextunit}`, (st, tok) => {
  const words = tok.split(/[ \t]+/);
  const [amount, behavior] = relTextAmount(words[0]);
  setRelative(st, amount, words[1], behavior, false);
});
rule(monthtext, (st, tok) => {
  haveDate(st);
  st.m = MONTHS[tok.toLowerCase()];
});
rule(`${tzcorrection}|${tzname}`, (st, tok) => {
  if (haveZone(st)) setZone(st, tok);
});
rule(
  `${monthtext}[ .\\t-]*${day}[,.stndrh\\t ]*(?:${hour12}[:.]${minute}(?:[:.]${second})?[ \\t]*${meridian})`,
  (st, tok) => {
    const m = new RegExp(`^(.*?)(${hour12}[:.]${minute}(?:[:.]${second})?[ \\t]*${meridian})$`, 'i').exec(tok)!;
    haveDate(st);
    st.m = monthOf(m[1]);
    st.d = Number(numbers(m[1])[0]);
    time12Action(st, m[2]);
  },
);
rule(`${monthtext}[ .\\t-]*${day}[,.stndrh\\t ]*(?:t?${hour24}[:.]${minute}(?:[:.]${second})?)`, (st, tok) => {
  const m = new RegExp(`^(.*?)(t?${hour24}[:.]${minute}(?:[:.]${second})?)$`, 'i').exec(tok)!;
  haveDate(st);
  st.m = monthOf(m[1]);
  st.d = Number(numbers(m[1])[0]);
  timeAction(st, m[2]);
});
rule(`[+-]*[ \\t]*[0-9]{1,13}[ \\t]*(?:${reltextunit}|week)`, (st, tok) => {
  const m = /^([+-]*)[ \t]*([0-9]+)[ \t]*(.*)$/.exec(tok)!;
  const negative = countMatches(m[1], /-/g) % 2 === 1;
  setRelative(st, negative ? -Number(m[2]) : Number(m[2]), m[3], 1, true);
});
rule('[ .,\\t]', () => {});

function parse(str: string): State {
  const st: State = {
    haveTime: false,
    haveDate: false,
    zones: 0,
    rel: { y: 0, m: 0, d: 0, h: 0, i: 0, s: 0, sd: 0, us: 0 },
    us: 0,
  };
  let pos = 0;
  while (pos < str.length) {
    let best = -1;
    let bestLen = 0;
    for (let k = 0; k < RULES.length; k++) {
      const re = RULES[k][0];
      re.lastIndex = pos;
      const m = re.exec(str);
      if (m && m[0].length > bestLen) {
        best = k;
        bestLen = m[0].length;
      }
    }
    if (best < 0) throw new Fail('Unexpected character');
    const tok = str.slice(pos, pos + bestLen);
    RULES[best][1](st, tok);
    pos += bestLen;
  }
  return st;
}

/**
 * timelib_do_normalize on the fields: seconds carry up to days, then the day count is read as a
 * date. timelib walks the months one by one (after whole 400-year steps); the day number gives
 * the same date in constant time, however far the relative amounts reach.
 */
function normalize(t: { y: number; m: number; d: number; h: number; i: number; s: number }): void {
  const carry = (v: number, size: number): [number, number] => {
    const q = Math.floor(v / size);
    return [v - q * size, q];
  };
  let c: number;
  [t.s, c] = carry(t.s, 60);
  t.i += c;
  [t.i, c] = carry(t.i, 60);
  t.h += c;
  [t.h, c] = carry(t.h, 24);
  t.d += c;
  ({ y: t.y, m: t.m, d: t.d } = civilFromDays(daysFromCivil(t.y, t.m, t.d)));
}

function adjustForWeekday(
  t: { y: number; m: number; d: number },
  wd: { day: number; behavior: number },
  relD: number,
): void {
  const current = weekday(daysFromCivil(t.y, t.m, t.d));
  let target = wd.day;
  if (wd.behavior === 2) {
    if (current === 0 && target !== 0) target -= 7;
    if (target === 0 && current !== 0) target = 7;
    t.d += target - current;
    return;
  }
  let diff = target - current;
  if ((relD < 0 && diff < 0) || (relD >= 0 && diff <= -wd.behavior)) diff += 7;
  if (target >= 0) t.d += diff;
  else t.d -= 7 - (Math.abs(target) - current);
}

/**
 * timelib's do_adjust_special_weekday: whole weeks of five business days, then the remainder,
 * stepping over a weekend; a count landing on (or, for 0 and backwards, starting from) a
 * weekend ends on the nearest business day in the direction of travel.
 */
function addWeekdays(t: { y: number; m: number; d: number }, count: number): void {
  const dow = weekday(daysFromCivil(t.y, t.m, t.d));
  // C division and remainder truncate toward zero
  t.d += Math.trunc(count / 5) * 7;
  const rem = count % 5;
  if (count > 0) {
    if (rem === 0) {
      if (dow === 0) t.d -= 2;
      else if (dow === 6) t.d -= 1;
    } else if (dow === 6) t.d += 1;
    else if (dow + rem > 5) t.d += 2;
  } else if (rem === 0) {
    if (dow === 6) t.d += 2;
    else if (dow === 0) t.d += 1;
  } else if (dow === 0) t.d -= 1;
  else if (dow + rem < 1) t.d -= 2;
  t.d += rem;
}

/**
 * strtotime(str, base) in zone `tz`: a Unix timestamp as a double, for date arithmetic, or
 * false. The int PHP returns, exact past 2^53, is strtotimeInt's.
 */
export function phpStrtotime(str: string, base: number, tz: string): number | false {
  const t = strtotimeInt(str, base, tz);
  return typeof t === 'bigint' ? Number(t) : t;
}

/** strtotime(str, base) in zone `tz`: PHP's int ("@9223372036854775807" exactly), or false. */
export function strtotimeInt(str: string, base: number, tz: string): PhpInt | false {
  if (str === '') return false;
  let st: State;
  try {
    st = parse(str.toString());
  } catch (e) {
    if (e instanceof Fail) return false;
    throw e;
  }
  const now = fieldsOf(base + utcOffset(base, tz));
  if (st.haveDate && !st.haveTime) st.h = st.i = st.s = 0;
  const t = {
    y: st.y ?? now.y,
    m: st.m ?? now.m,
    d: st.d ?? now.d,
    h: st.h ?? now.h,
    i: st.i ?? now.i,
    s: st.s ?? now.s,
  };
  // do_adjust_special_early
  if (st.special && st.special.type !== 'weekday') {
    t.d = 1;
    t.m += st.rel.m + (st.special.type === 'last' ? 1 : 0);
    st.rel.m = 0;
  }
  normalize(t);
  // do_adjust_relative
  if (st.weekday) adjustForWeekday(t, st.weekday, st.rel.d);
  normalize(t);
  t.s += st.rel.s + Math.floor((st.us + st.rel.us) / 1e6);
  t.i += st.rel.i;
  t.h += st.rel.h;
  t.d += st.rel.d + st.rel.sd;
  t.m += st.rel.m;
  t.y += st.rel.y;
  if (st.firstLastDayOf === 'first') t.d = 1;
  else if (st.firstLastDayOf === 'last') {
    t.d = 0;
    t.m++;
  }
  normalize(t);
  // do_adjust_special
  if (st.special?.type === 'weekday') {
    addWeekdays(t, st.special.amount);
    normalize(t);
  }
  const days = daysFromCivil(t.y, t.m, t.d);
  const hms = t.h * 3600 + t.i * 60 + t.s;
  const offsetAt = (local: number): number =>
    st.zone && 'offset' in st.zone ? st.zone.offset : localOffset(local, st.zone ? st.zone.id : tz);
  const local = days * 86400 + hms;
  if (Math.abs(local) < 2 ** 52) return local - offsetAt(local);
  return wrappedInstant(days, hms, offsetAt);
}

/**
 * Far out: timelib's int64 sums, exact, wrapping past 2^63 as its C arithmetic does
 * ("+9999999999999 years" is a negative timestamp in PHP).
 * The zone's offset is looked up at the wrapped local time, as timelib does. (Exact while the
 * day number is below 2^53, beyond any single relative amount the grammar reads.)
 */
function wrappedInstant(days: number, hms: number, offsetAt: (local: number) => number): PhpInt {
  const local = BigInt.asIntN(64, BigInt(days) * 86400n + BigInt(hms));
  return intOf(BigInt.asIntN(64, local - BigInt(offsetAt(Number(local)))));
}
