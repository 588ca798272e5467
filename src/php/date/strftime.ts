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
import { DAY_NAMES, MONTH_NAMES, fieldsOf, isoWeek } from './civil.js';
import { isDst, tzAbbr, utcOffset } from './tz.js';
import { byteLength } from '../../runtime/bytes.js';

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
  readonly wday: number;
  readonly yday: number;
  readonly days: number;
  constructor(
    readonly ts: number,
    readonly off: number,
    private readonly tz: string,
  ) {
    const f = fieldsOf(ts + off);
    this.y = f.y;
    this.m = f.m;
    this.d = f.d;
    this.h = f.h;
    this.i = f.i;
    this.s = f.s;
    this.wday = f.wday;
    this.yday = f.yday;
    this.days = f.days;
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
  let s = render(fmt, tm);
  if (c.upper) s = s.toUpperCase();
  return fit(s, c);
}

/** One conversion; returns null for a bad format (copied as written). */
function convert(ch: string, mod: string, tm: Tm, c: Conv): string | null {
  const noE = mod === 'E';
  const noO = mod === 'O';
  const h12 = tm.h % 12 === 0 ? 12 : tm.h % 12;
  switch (ch) {
    case 'a': return mod ? null : text(DAY_NAMES[tm.wday].slice(0, 3), c);
    case 'A': return mod ? null : text(DAY_NAMES[tm.wday], c);
    case 'b':
    case 'h': return noE ? null : text(MONTH_NAMES[tm.m - 1].slice(0, 3), c);
    case 'B': return noE ? null : text(MONTH_NAMES[tm.m - 1], c);
    case 'c': return noO ? null : sub('%a %b %e %H:%M:%S %Y', tm, c);
    case 'C': return noO ? null : number(Math.floor(tm.y / 100), 2, c);
    case 'd': return noE ? null : number(tm.d, 2, c);
    case 'D': return mod ? null : sub('%m/%d/%y', tm, c);
    case 'e': return noE ? null : number(tm.d, 2, c, true);
    case 'F': return mod ? null : sub('%Y-%m-%d', tm, c);
    case 'H': return noE ? null : number(tm.h, 2, c);
    case 'I': return noE ? null : number(h12, 2, c);
    case 'j': return noE ? null : number(tm.yday + 1, 3, c);
    case 'k': return noE ? null : number(tm.h, 2, c, true);
    case 'l': return noE ? null : number(h12, 2, c, true);
    case 'm': return noE ? null : number(tm.m, 2, c);
    case 'M': return noE ? null : number(tm.i, 2, c);
    case 'n': return fit('\n', c);
    case 't': return fit('\t', c);
    case 'P':
      return fit(tm.h >= 12 ? 'pm' : 'am', c);
    case 'p':
      return text(tm.h >= 12 ? 'PM' : 'AM', c, true);
    case 'r': return sub('%I:%M:%S %p', tm, c);
    case 'R': return sub('%H:%M', tm, c);
    case 's': return number(tm.ts + tm.off - (tm.dst ? 3600 : 0), 1, c);
    case 'S': return noE ? null : number(tm.s, 2, c);
    case 'T': return sub('%H:%M:%S', tm, c);
    case 'u': return number(((tm.wday + 6) % 7) + 1, 1, c);
    case 'U': return noE ? null : number(Math.floor((tm.yday + 7 - tm.wday) / 7), 2, c);
    case 'V': return noE ? null : number(isoWeek(tm.days).week, 2, c);
    case 'g': return noE ? null : number(((isoWeek(tm.days).year % 100) + 100) % 100, 2, c);
    case 'G': return noE ? null : number(isoWeek(tm.days).year, 1, c);
    case 'w': return noE ? null : number(tm.wday, 1, c);
    case 'W': return noE ? null : number(Math.floor((tm.yday + 7 - ((tm.wday + 6) % 7)) / 7), 2, c);
    case 'x': return noO ? null : sub('%m/%d/%y', tm, c);
    case 'X': return noO ? null : sub('%H:%M:%S', tm, c);
    case 'y': return number(((tm.y % 100) + 100) % 100, 2, c);
    case 'Y': return noO ? null : number(tm.y, 1, c);
    case 'z': {
      // the sign is its own padded piece, then the number (glibc's add(1, sign); DO_NUMBER(4, ...))
      const a = Math.abs(tm.off);
      return fit(tm.off < 0 ? '-' : '+', c) + number(Math.floor(a / 3600) * 100 + (Math.floor(a / 60) % 60), 4, c);
    }
    case 'Z': return text(tm.abbr, c, true);
    case '%': return mod ? null : fit('%', c);
    default: return null;
  }
}

/** A `%` sequence as parsed: the conversion, its flags and width, and its text as written. */
interface Sequence {
  ch: string;
  mod: string;
  c: Conv;
  /** What a bad sequence prints: the text back to the nearest '%' (a rejected "%E%" prints "%"). */
  raw: string;
}

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
    for (;; j++) {
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
    pieces.push({ ch, mod, c, raw: format.slice(format.lastIndexOf('%', end - 1), end) });
    k = end;
  }
  return pieces;
}

function render(format: string, tm: Tm): string {
  let pieces = parsedFormats.get(format);
  if (!pieces) {
    pieces = parseFormat(format);
    if (parsedFormats.size >= 256) parsedFormats.clear();
    parsedFormats.set(format, pieces);
  }
  let out = '';
  for (const p of pieces) {
    if (typeof p === 'string') out += p;
    else {
      // a bad format: the sequence as written, padded to the width
      out += (p.ch === '' ? null : convert(p.ch, p.mod, tm, p.c)) ?? fit(p.raw, p.c);
    }
    if (out.length > MAX_RESULT) throw new TooLong();
  }
  return out;
}

/** strftime(format, ts) in `tz`; false where PHP returns false. */
export function phpStrftime(format: string, ts: number, tz: string): string | false {
  if (format === '') return false;
  const tm = new Tm(ts, utcOffset(ts, tz), tz);
  try {
    const s = render(format, tm);
    // a UTF-16 unit is at most 3 bytes of UTF-8: short results need no byte count
    return s === '' || (s.length * 3 > MAX_RESULT && byteLength(s) > MAX_RESULT) ? false : s;
  } catch (e) {
    if (e instanceof TooLong) return false;
    throw e;
  }
}
