/**
 * Conversions between what a control holds (text) and the stored JSON value, with the
 * round-trips documented in README.md "Coercions". Failed conversions return an en/ja error
 * and never a value, so the caller keeps the previous value (src/forms/README.md F6).
 */
import { message } from './messages.js';
import type { JsonValue, LocalizedMessage } from './types.js';

export type Coerced<T> = { ok: true; value: T } | { ok: false; error: LocalizedMessage };

// ---- numbers ---------------------------------------------------------------------------

const NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Full-width digits, signs, point and spaces (typed with a Japanese IME) become ASCII. */
function halfWidth(text: string): string {
  return text
    .replace(/[\uFF10-\uFF19\uFF0B\uFF0D\uFF0E\uFF45\uFF25]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/\u2212/g, '-');
}

/** Numeric input text to a number; empty (or blank) text is `null`. */
export function textToNumber(text: string): Coerced<number | null> {
  const t = halfWidth(text).trim();
  if (t === '') return { ok: true, value: null };
  if (!NUMBER_RE.test(t)) return { ok: false, error: message('coerce.not-a-number', { text }) };
  const n = Number(t);
  if (!Number.isFinite(n)) return { ok: false, error: message('coerce.not-a-number', { text }) };
  return { ok: true, value: n };
}

/** A stored number to input text; null (or anything not a finite number) is "". */
export function numberToText(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
}

// ---- comma-separated string lists ------------------------------------------------------

/** Separators: ASCII comma, full-width comma (U+FF0C) and line breaks. */
const LIST_SEPARATOR = /[,\uFF0C\r\n]/;

/**
 * Comma text to a string list: split on commas (ASCII or full-width) and line breaks, trim
 * each item (String.prototype.trim, which includes the ideographic space), drop empty items.
 * "" gives []. Duplicates are kept (uniqueItems, if set, reports them). Items cannot contain
 * a comma: there is no escape syntax.
 */
export function commaTextToList(text: string): string[] {
  return text
    .split(LIST_SEPARATOR)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A string list to comma text, joined with ", ". Non-string items are written as JSON text. */
export function listToCommaText(value: unknown): string {
  if (!Array.isArray(value)) return '';
  return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
}

// ---- dates -----------------------------------------------------------------------------

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function validYmd(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** `<input type=date>` text (YYYY-MM-DD) to the stored value; "" is null. */
export function dateInputToValue(text: string): Coerced<string | null> {
  const t = text.trim();
  if (t === '') return { ok: true, value: null };
  const m = DATE_RE.exec(t);
  if (!m || !validYmd(+m[1]!, +m[2]!, +m[3]!)) return { ok: false, error: message('coerce.invalid-date', { text }) };
  return { ok: true, value: t };
}

/** A stored date to input text ("" unless it is a YYYY-MM-DD string). */
export function valueToDateInput(value: unknown): string {
  return typeof value === 'string' && DATE_RE.test(value) ? value : '';
}

// ---- date-times ------------------------------------------------------------------------

export interface TimeZoneOptions {
  /**
   * The site's IANA time zone (e.g. "Asia/Tokyo"). Absent: the runtime's local zone (the
   * browser's, or the server's TZ).
   */
  timeZone?: string;
}

const LOCAL_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;
const STORED_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

interface Wall {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
}

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

function wallFromMatch(m: RegExpExecArray): Wall | undefined {
  const w = { y: +m[1]!, mo: +m[2]!, d: +m[3]!, h: +m[4]!, mi: +m[5]!, s: m[6] ? +m[6] : 0 };
  if (!validYmd(w.y, w.mo, w.d) || w.h > 23 || w.mi > 59 || w.s > 59) return undefined;
  return w;
}

const wallMs = (w: Wall) => Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s);

/** Offset of `timeZone` (minutes east of UTC) at the instant `ms`. */
function zoneOffset(ms: number, timeZone: string | undefined): number {
  if (timeZone === undefined) return -new Date(ms).getTimezoneOffset();
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60000);
}

/**
 * The instant of a wall-clock time in a zone. In a DST overlap the earlier instant wins; in a
 * DST gap (a time that does not exist) the time is moved forward by the gap, as browsers do.
 */
function instantOf(w: Wall, timeZone: string | undefined): number {
  const local = wallMs(w);
  const first = local - zoneOffset(local, timeZone) * 60000;
  const offset = zoneOffset(first, timeZone);
  const second = local - offset * 60000;
  if (zoneOffset(second, timeZone) === offset) return second;
  return Math.max(first, second);
}

function formatOffset(min: number): string {
  const sign = min < 0 ? '-' : '+';
  return `${sign}${pad(Math.trunc(Math.abs(min) / 60))}:${pad(Math.abs(min) % 60)}`;
}

function wallAt(ms: number, offsetMin: number): Wall {
  const t = new Date(ms + offsetMin * 60000);
  return {
    y: t.getUTCFullYear(),
    mo: t.getUTCMonth() + 1,
    d: t.getUTCDate(),
    h: t.getUTCHours(),
    mi: t.getUTCMinutes(),
    s: t.getUTCSeconds(),
  };
}

const wallText = (w: Wall) => `${pad(w.y, 4)}-${pad(w.mo)}-${pad(w.d)}T${pad(w.h)}:${pad(w.mi)}:${pad(w.s)}`;

/**
 * `<input type=datetime-local>` text (`YYYY-MM-DDTHH:mm` or with `:ss`) to the stored form
 * `YYYY-MM-DDTHH:mm:ss±hh:mm`: the wall-clock time the editor picked, in the site's time
 * zone, with that zone's offset at that moment (src/forms/README.md F3). Missing seconds
 * become `:00`; fractions are dropped. "" is null.
 */
export function datetimeInputToValue(text: string, opts: TimeZoneOptions = {}): Coerced<string | null> {
  const t = text.trim();
  if (t === '') return { ok: true, value: null };
  const m = LOCAL_RE.exec(t);
  const w = m ? wallFromMatch(m) : undefined;
  if (!w) return { ok: false, error: message('coerce.invalid-datetime', { text }) };
  const instant = instantOf(w, opts.timeZone);
  const offset = zoneOffset(instant, opts.timeZone);
  return { ok: true, value: wallText(wallAt(instant, offset)) + formatOffset(offset) };
}

/**
 * A stored date-time to `datetime-local` text `YYYY-MM-DDTHH:mm:ss` in the site's zone
 * (a value stored with another offset, or `Z`, is shown as the same instant in the site's
 * zone). A value without an offset is taken as site wall-clock time. Invalid values give "".
 */
export function valueToDatetimeInput(value: unknown, opts: TimeZoneOptions = {}): string {
  if (typeof value !== 'string') return '';
  const m = STORED_RE.exec(value.trim());
  const w = m ? wallFromMatch(m) : undefined;
  if (!m || !w) return '';
  const off = m[7];
  if (off === undefined) return wallText(w);
  let offMin = 0;
  if (off !== 'Z' && off !== 'z') {
    const digits = off.replace(':', '');
    offMin = (off[0] === '-' ? -1 : 1) * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
  }
  const instant = wallMs(w) - offMin * 60000;
  return wallText(wallAt(instant, zoneOffset(instant, opts.timeZone)));
}

// ---- dates as a Japanese page writes them ------------------------------------------------
//
// Chromium draws <input type=date> in the browser's own locale whatever the page's `lang`
// (mm/dd/yyyy in an English browser), so a Japanese page edits dates as text in the order a
// Japanese reader expects, 2024/05/01 and 2024/05/01 09:30:00 (src/forms-ui/README.md).

/** Full-width digits, slash, colon and space (a Japanese IME) become ASCII. */
function halfWidthDate(text: string): string {
  return text
    .replace(/[\uFF10-\uFF19\uFF0F\uFF1A]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/\u3000/g, ' ')
    .trim();
}

const SLASH_DATE_RE = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/;
const SLASH_DATETIME_RE = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:\s+|T)(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** `YYYY/MM/DD` text (month and day may have one digit; `-` also accepted) to the stored date; "" is null. */
export function slashDateToValue(text: string): Coerced<string | null> {
  const t = halfWidthDate(text);
  if (t === '') return { ok: true, value: null };
  const m = SLASH_DATE_RE.exec(t);
  const ymd = m ? `${m[1]!}-${pad(+m[2]!)}-${pad(+m[3]!)}` : '';
  const r = dateInputToValue(ymd);
  return r.ok && r.value !== null ? r : { ok: false, error: message('coerce.invalid-slash-date', { text }) };
}

/** A stored date as `YYYY/MM/DD` ("" unless it is a YYYY-MM-DD string). */
export function valueToSlashDate(value: unknown): string {
  return valueToDateInput(value).replace(/-/g, '/');
}

/** `YYYY/MM/DD HH:mm:ss` text (seconds optional) to the stored date-time, as datetimeInputToValue; "" is null. */
export function slashDatetimeToValue(text: string, opts: TimeZoneOptions = {}): Coerced<string | null> {
  const t = halfWidthDate(text);
  if (t === '') return { ok: true, value: null };
  const m = SLASH_DATETIME_RE.exec(t);
  const local = m ? `${m[1]!}-${pad(+m[2]!)}-${pad(+m[3]!)}T${pad(+m[4]!)}:${m[5]!}:${m[6] ?? '00'}` : '';
  const r = datetimeInputToValue(local, opts);
  return r.ok && r.value !== null ? r : { ok: false, error: message('coerce.invalid-slash-datetime', { text }) };
}

/** A stored date-time as `YYYY/MM/DD HH:mm:ss` in the site's zone, as valueToDatetimeInput ("" when invalid). */
export function valueToSlashDatetime(value: unknown, opts: TimeZoneOptions = {}): string {
  const t = valueToDatetimeInput(value, opts);
  return t === '' ? '' : `${t.slice(0, 10).replace(/-/g, '/')} ${t.slice(11)}`;
}

// ---- JSON textarea ---------------------------------------------------------------------

export type JsonExpect = 'object' | 'array' | 'any';

/** Line and column (1-based) from a JSON.parse error, when the engine tells them. */
function errorPosition(err: unknown, text: string): { line: number; column: number } | undefined {
  const msg = err instanceof Error ? err.message : '';
  const lc = /line (\d+) column (\d+)/i.exec(msg);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /position (\d+)/i.exec(msg);
  if (!pos) return undefined;
  const before = text.slice(0, Number(pos[1]));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/**
 * JSON textarea text to a value. Blank text is null (an emptied field). Invalid JSON, or
 * JSON of the wrong kind (`expect`), is an error and no value: the caller keeps the
 * previous value, so a half-typed edit never overwrites the stored one.
 */
export function jsonTextToValue(text: string, expect: JsonExpect = 'object'): Coerced<JsonValue> {
  if (text.trim() === '') return { ok: true, value: null };
  let parsed: JsonValue;
  try {
    // JSON.parse gives JSON values only: the type says what it cannot.
    parsed = JSON.parse(text);
  } catch (e) {
    const at = errorPosition(e, text);
    return { ok: false, error: message('coerce.invalid-json', at ? { line: at.line, column: at.column } : {}) };
  }
  const isObject = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
  if (expect === 'object' && !isObject) return { ok: false, error: message('coerce.json-not-object') };
  if (expect === 'array' && !Array.isArray(parsed)) return { ok: false, error: message('coerce.json-not-array') };
  return { ok: true, value: parsed };
}

/** Applies JSON text to a field: the new value when it parses, else the previous value and the error. */
export function applyJsonText(
  previous: JsonValue,
  text: string,
  expect: JsonExpect = 'object',
): { value: JsonValue; error?: LocalizedMessage } {
  const r = jsonTextToValue(text, expect);
  return r.ok ? { value: r.value } : { value: previous, error: r.error };
}

/** A value to JSON textarea text (2-space indent); null is "". */
export function valueToJsonText(value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value, null, 2);
}
