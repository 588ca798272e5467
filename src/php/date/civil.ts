/** Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01). */

export function daysFromCivil(y: number, m: number, d: number): number {
  // Months outside 1..12 roll over into neighbouring years, as mktime() does.
  y += Math.floor((m - 1) / 12);
  m = ((((m - 1) % 12) + 12) % 12) + 1;
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function civilFromDays(z: number): { y: number; m: number; d: number } {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d };
}

export function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function daysInMonth(y: number, m: number): number {
  return [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

/** 0 = Sunday */
export function weekday(days: number): number {
  return (((days + 4) % 7) + 7) % 7;
}

/** ISO-8601 week-numbering year and week of a day number. */
export function isoWeek(days: number): { year: number; week: number } {
  const wd = (weekday(days) + 6) % 7; // Monday = 0
  const thursday = days - wd + 3;
  const { y } = civilFromDays(thursday);
  const week = Math.floor((thursday - daysFromCivil(y, 1, 1)) / 7) + 1;
  return { year: y, week };
}

/** Broken-down local time of `local` seconds (a UTC-like count that already includes the offset). */
export interface Fields {
  y: number;
  m: number;
  d: number;
  h: number;
  i: number;
  s: number;
  /** day number */
  days: number;
  /** 0 = Sunday */
  wday: number;
  /** 0-based day of the year */
  yday: number;
}

export function fieldsOf(local: number): Fields {
  const days = Math.floor(local / 86400);
  return fieldsOfDay(days, local - days * 86400);
}

/**
 * The same from a local time held exactly (past 2^53 a double's seconds are off by up to 1024):
 * the day number stays below 2^47 and its second of the day is exact.
 */
export function fieldsOfBig(local: bigint): Fields {
  let days = local / 86400n;
  if (local < days * 86400n) days -= 1n;
  return fieldsOfDay(Number(days), Number(local - days * 86400n));
}

function fieldsOfDay(days: number, sec: number): Fields {
  const { y, m, d } = civilFromDays(days);
  return {
    y,
    m,
    d,
    h: Math.floor(sec / 3600),
    i: Math.floor(sec / 60) % 60,
    s: sec % 60,
    days,
    wday: weekday(days),
    yday: days - daysFromCivil(y, 1, 1),
  };
}

export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export function pad(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? '-' + s : s;
}
