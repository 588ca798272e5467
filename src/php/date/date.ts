/** PHP 8.2 date(): every format letter, in an IANA time zone. */
import { DAY_NAMES, MONTH_NAMES, daysInMonth, fieldsOf, fieldsOfBig, isLeap, isoWeek, pad } from './civil.js';
import { isDst, tzAbbr, utcOffset } from './tz.js';

function englishSuffix(n: number): string {
  if (n >= 10 && n <= 19) return 'th';
  switch (n % 10) {
    case 1:
      return 'st';
    case 2:
      return 'nd';
    case 3:
      return 'rd';
  }
  return 'th';
}

function offsetString(off: number, colon: boolean): string {
  const a = Math.abs(off);
  return (off < 0 ? '-' : '+') + pad(Math.floor(a / 3600), 2) + (colon ? ':' : '') + pad(Math.floor(a / 60) % 60, 2);
}

function year4(y: number): string {
  return (y < 0 ? '-' : '') + pad(Math.abs(y), 4);
}

/** C's `%04lld`: the sign takes one of the four places (`-001`), as `c` and `r` print the year. */
function cYear(y: number): string {
  return y < 0 ? '-' + pad(-y, 3) : pad(y, 4);
}

/** Seconds of `ts` past its UTC midnight, C's truncating `%` (negative before 1970). */
function secondOfDay(ts: number | bigint): number {
  return typeof ts === 'bigint' ? Number(ts % 86400n) : ts % 86400;
}

/**
 * date(format, ts) in time zone `tz`. An int past 2^53 arrives as a bigint and is read exactly;
 * timelib adds the offset in int64 and wraps, so PHP_INT_MAX in Asia/Tokyo prints a year
 * of -292277022657, as PHP does.
 */
export function phpDate(format: string, timestamp: number | bigint, tz: string): string {
  const big = typeof timestamp === 'bigint' || (Number.isInteger(timestamp) && !Number.isSafeInteger(timestamp));
  const ts = Number(timestamp);
  const off = utcOffset(ts, tz);
  const f = big ? fieldsOfBig(BigInt.asIntN(64, BigInt(timestamp) + BigInt(off))) : fieldsOf(ts + off);
  const h12 = f.h % 12 === 0 ? 12 : f.h % 12;
  const letter = (c: string): string => {
    switch (c) {
      case 'd':
        return pad(f.d, 2);
      case 'D':
        return DAY_NAMES[f.wday].slice(0, 3);
      case 'j':
        return String(f.d);
      case 'l':
        return DAY_NAMES[f.wday];
      case 'N':
        return String(f.wday === 0 ? 7 : f.wday);
      case 'S':
        return englishSuffix(f.d);
      case 'w':
        return String(f.wday);
      case 'z':
        return String(f.yday);
      case 'W':
        return pad(isoWeek(f.days).week, 2);
      case 'F':
        return MONTH_NAMES[f.m - 1];
      case 'm':
        return pad(f.m, 2);
      case 'M':
        return MONTH_NAMES[f.m - 1].slice(0, 3);
      case 'n':
        return String(f.m);
      case 't':
        return String(daysInMonth(f.y, f.m));
      case 'L':
        return isLeap(f.y) ? '1' : '0';
      case 'o':
        return String(isoWeek(f.days).year);
      case 'X':
        return (f.y < 0 ? '-' : '+') + pad(Math.abs(f.y), 4);
      case 'x':
        return f.y >= 10000 || f.y < 0 ? (f.y < 0 ? '-' : '+') + pad(Math.abs(f.y), 4) : year4(f.y);
      case 'Y':
        return year4(f.y);
      case 'y':
        // C's `%02d` of `y % 100`: the remainder keeps the year's sign (-1, -48)
        return f.y % 100 < 0 ? '-' + String(-(f.y % 100)) : pad(f.y % 100, 2);
      case 'a':
        return f.h >= 12 ? 'pm' : 'am';
      case 'A':
        return f.h >= 12 ? 'PM' : 'AM';
      case 'B': {
        // Swatch beat: UTC+1 time of day in thousandths (C's truncating % on purpose)
        let beat = (secondOfDay(timestamp) + 3600) * 10;
        if (beat < 0) beat += 864000;
        return pad(Math.floor(beat / 864) % 1000, 3);
      }
      case 'g':
        return String(h12);
      case 'G':
        return String(f.h);
      case 'h':
        return pad(h12, 2);
      case 'H':
        return pad(f.h, 2);
      case 'i':
        return pad(f.i, 2);
      case 's':
        return pad(f.s, 2);
      case 'u':
        return '000000';
      case 'v':
        return '000';
      case 'e':
        return tz;
      case 'I':
        return isDst(ts, tz) ? '1' : '0';
      case 'O':
        return offsetString(off, false);
      case 'P':
        return offsetString(off, true);
      case 'p': {
        const abbr = tzAbbr(ts, tz);
        return abbr === 'UTC' || abbr === 'Z' ? 'Z' : offsetString(off, true);
      }
      case 'T':
        return tzAbbr(ts, tz);
      case 'Z':
        return String(off);
      case 'c':
        return `${cYear(f.y)}-${pad(f.m, 2)}-${pad(f.d, 2)}T${pad(f.h, 2)}:${pad(f.i, 2)}:${pad(f.s, 2)}${offsetString(off, true)}`;
      case 'r':
        return (
          `${DAY_NAMES[f.wday].slice(0, 3)}, ${pad(f.d, 2)} ${MONTH_NAMES[f.m - 1].slice(0, 3)} ${cYear(f.y)} ` +
          `${pad(f.h, 2)}:${pad(f.i, 2)}:${pad(f.s, 2)} ${offsetString(off, false)}`
        );
      case 'U':
        return String(timestamp);
      default:
        return c;
    }
  };
  let out = '';
  for (let k = 0; k < format.length; k++) {
    const c = format[k];
    if (c === '\\') {
      // a trailing backslash copies the string's terminating NUL byte
      out += k + 1 < format.length ? format[++k] : '\0';
      continue;
    }
    out += letter(c);
  }
  return out;
}
