/**
 * The mbstring functions a template may call, for UTF-8 (the internal encoding) as PHP 8.2
 * computes them. Two ways of counting characters exist in mbstring and both are kept:
 * mb_strlen and mb_substr step by the lead byte's length table (a truncated sequence
 * swallows the bytes after it), while the functions that decode (mb_strpos, mb_strwidth,
 * mb_strimwidth) turn each invalid sequence into one bad character. mb_strpos is a third:
 * PHP 8.2 searches UTF-8 bytes as they are (strposBytes).
 */
import { fromBinary, isAscii, toBinary } from '../../value/bytes.js';
import { valueError } from '../args.js';
import { WIDE_RANGES } from './east-asian-width.js';
import { nextMbUtf8 } from './utf8-scan.js';

/** Byte length of the character a lead byte starts, per mbstring's UTF-8 table. */
function mbLen(b: number): number {
  if (b < 0xc2 || b >= 0xf5) return 1;
  return b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
}

/** Byte offsets where characters start (mb_strlen's view), plus the end. */
function tableOffsets(bin: string): number[] {
  const offs: number[] = [];
  let i = 0;
  while (i < bin.length) {
    offs.push(i);
    i += mbLen(bin.charCodeAt(i));
  }
  offs.push(bin.length);
  return offs;
}

/**
 * Surrogates: a character beyond the BMP (a pair) or a byte that is not UTF-8 (bytes.ts keeps
 * those as lone surrogates). Text without any is one UTF-16 unit per character as mbstring
 * counts them, for the table's count and the decoder's alike.
 */
const SURROGATE = /[\ud800-\udfff]/;

export function mbStrlen(s: string): number {
  if (isAscii(s) || !SURROGATE.test(s)) return s.length;
  return tableOffsets(toBinary(s)).length - 1;
}

export function mbSubstr(s: string, start: number, length: number | null = null): string {
  // Japanese text and the like: indexes are characters; no UTF-8 round trip (~2 µs for 200 characters).
  if (!SURROGATE.test(s)) return cutChars(s.length, start, length, (a, b) => s.slice(a, b));
  const bin = toBinary(s);
  const offs = tableOffsets(bin);
  // The last character may claim bytes past the end of a truncated string.
  return cutChars(offs.length - 1, start, length, (a, b) =>
    fromBinary(bin.slice(offs[a], Math.min(offs[b], bin.length))),
  );
}

/** mb_substr's range over `n` characters; `cut(from, to)` gives the characters [from, to). */
function cutChars(n: number, start: number, length: number | null, cut: (from: number, to: number) => string): string {
  const from = start < 0 ? Math.max(0, n + start) : start;
  if (from > n) return '';
  let to = length === null ? n : length < 0 ? n + length : from + length;
  to = Math.min(to, n);
  if (to <= from) return '';
  return cut(from, to);
}

/** A decoded character: its code point (-1 when invalid) and its bytes. */
interface Ch {
  cp: number;
  raw: string;
}

function decode(s: string): Ch[] {
  const bin = toBinary(s);
  const out: Ch[] = [];
  for (let i = 0; i < bin.length;) {
    const { cp, len } = nextMbUtf8(bin, i);
    out.push({ cp, raw: bin.slice(i, i + len) });
    i += len;
  }
  return out;
}

export function isWide(cp: number): boolean {
  // Below the table's first range, and kana and the unified ideographs (most of Japanese text),
  // which are entries of the table: answered without its binary search.
  if (cp < 0x1100) return false;
  if ((cp >= 0x3041 && cp <= 0x30ff && cp !== 0x3097 && cp !== 0x3098) || (cp >= 0x4e00 && cp <= 0xa48c)) return true;
  let lo = 0;
  let hi = WIDE_RANGES.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < WIDE_RANGES[mid * 2]) hi = mid - 1;
    else if (cp > WIDE_RANGES[mid * 2 + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}

const width = (c: Ch) => (c.cp >= 0 && isWide(c.cp) ? 2 : 1);

export function mbStrwidth(s: string): number {
  if (isAscii(s)) return s.length;
  return decode(s).reduce((w, c) => w + width(c), 0);
}

/** Writes decoded characters back; invalid sequences come out as `?` as mbstring does. */
function encode(chars: Ch[]): string {
  return fromBinary(chars.map((c) => (c.cp < 0 ? '?' : c.raw)).join(''));
}

export function mbStrimwidth(s: string, start: number, w: number, marker = ''): string {
  if (start >= 0 && w >= 0 && s.isWellFormed()) return strimFromStart(s, start, w, marker);
  const chars = decode(s);
  // PHP 8.2 places and checks `start` by mb_strlen's count, which differs from the decoded
  // characters' where a truncated sequence swallows the bytes after it.
  const count = mbStrlen(s);
  if (start < 0) start += count;
  if (start < 0 || start > count) throw valueError('mb_strimwidth', 2, 'start', 'is out of range');
  const rest = chars.slice(start);
  const total = rest.reduce((n, c) => n + width(c), 0);
  if (w < 0) w += total;
  if (w < 0) throw valueError('mb_strimwidth', 3, 'width', 'is out of range');
  if (total <= w) return encode(rest);
  const budget = w - mbStrwidth(marker);
  let used = 0;
  let k = 0;
  while (k < rest.length && used + width(rest[k]) <= budget) used += width(rest[k++]);
  return encode(rest.slice(0, k)) + marker;
}

/**
 * mb_strimwidth of well-formed text (every character valid, so each comes back as written) with
 * a start and width that are not negative: the code points are read in place and the scan stops
 * once the text is known to be wider than `w`. Decoding every character into an object first
 * was ~17 µs for 300 characters inside an isolate.
 */
function strimFromStart(s: string, start: number, w: number, marker: string): string {
  let i = 0;
  for (let n = 0; n < start; n++) {
    if (i >= s.length) throw valueError('mb_strimwidth', 2, 'start', 'is out of range');
    i += s.codePointAt(i)! > 0xffff ? 2 : 1;
  }
  const from = i;
  const budget = w - mbStrwidth(marker);
  let used = 0;
  let cut = -1; // where the characters that fit in the budget end
  while (i < s.length) {
    const cp = s.codePointAt(i)!;
    const cw = isWide(cp) ? 2 : 1;
    if (cut < 0 && used + cw > budget) cut = i;
    used += cw;
    if (used > w) return s.slice(from, cut) + marker;
    i += cp > 0xffff ? 2 : 1;
  }
  return s.slice(from);
}

/**
 * Code points JavaScript's case maps pair that PHP 8.2's simple folding (Unicode 14) leaves
 * alone: the dotless i, which only Turkic folding maps to i, and the case pairs of later
 * Unicode versions (checked against mb_convert_case(MB_CASE_FOLD_SIMPLE) over every code point).
 */
const NOT_FOLDED: [number, number][] = [
  [0x0131, 0x0131],
  [0x019b, 0x019b],
  [0x0264, 0x0264],
  [0x1c89, 0x1c8a],
  [0xa7cb, 0xa7cf],
  [0xa7d2, 0xa7d5],
  [0xa7da, 0xa7dc],
  [0x10d50, 0x10d85],
  [0x16ea0, 0x16edf],
];

/** PHP_UNICODE_CASE_FOLD_SIMPLE, approximated per code point with JavaScript's case maps. */
function foldCase(cp: number): number {
  if (cp >= 0x0131 && NOT_FOLDED.some(([lo, hi]) => cp >= lo && cp <= hi)) return cp;
  const ch = String.fromCodePoint(cp);
  const up = ch.toUpperCase();
  const viaUpper = [...up].length === 1 ? up.toLowerCase() : ch.toLowerCase();
  return [...viaUpper].length === 1 ? viaUpper.codePointAt(0)! : cp;
}

function indexOfChars(hay: Ch[], needle: Ch[], from: number, same: (a: Ch, b: Ch) => boolean): number {
  outer: for (let i = from; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (!same(hay[i + j], needle[j])) continue outer;
    return i;
  }
  return -1;
}

function mbSearch(fn: string, hay: string, needle: string, offset: number, fold: boolean): number | false {
  const h = decode(hay);
  const n = decode(needle);
  if (offset < 0) offset += h.length;
  if (offset < 0 || offset > h.length)
    throw valueError(fn, 3, 'offset', 'must be contained in argument #1 ($haystack)');
  // Case conversion writes each invalid sequence as mbstring's substitute character, `?`, so
  // after folding a bad sequence matches any other and a real `?` too.
  const folded = (c: Ch) => (c.cp < 0 ? 0x3f : foldCase(c.cp));
  const same = fold ? (a: Ch, b: Ch) => folded(a) === folded(b) : (a: Ch, b: Ch) => a.raw === b.raw;
  const at = indexOfChars(h, n, offset, same);
  return at < 0 ? false : at;
}

export function mbStrpos(hay: string, needle: string, offset = 0): number | false {
  // Well-formed text: each character is one decoded character, one step of the length table and
  // one byte that is not a continuation byte, so the three ways of counting below agree.
  if (hay.isWellFormed() && needle.isWellFormed()) return mbSearch('mb_strpos', hay, needle, offset, false);
  return strposBytes(toBinary(hay), toBinary(needle), offset);
}

const isContinuation = (b: number) => (b & 0xc0) === 0x80;

/**
 * mb_strpos over bytes that are not all valid UTF-8, as PHP 8.2 searches UTF-8 (mb_find_strpos):
 * the bytes as they are, no decoding. A positive offset steps by the lead byte's length table
 * (mb_strlen's view), a negative one counts back the bytes that are not continuation bytes, and
 * the position found is the number of those bytes before it. A table step past the end (a
 * truncated sequence at the end) stops at the end: PHP reads past the string's memory there.
 */
function strposBytes(h: string, n: string, offset: number): number | false {
  let pos = offset < 0 ? h.length : 0;
  for (let k = offset; k < 0;) {
    if (pos <= 0) throw valueError('mb_strpos', 3, 'offset', 'must be contained in argument #1 ($haystack)');
    if (!isContinuation(h.charCodeAt(--pos))) k++;
  }
  for (let k = offset; k > 0; k--) {
    if (pos >= h.length) throw valueError('mb_strpos', 3, 'offset', 'must be contained in argument #1 ($haystack)');
    pos += mbLen(h.charCodeAt(pos));
  }
  if (h.length < n.length) return false;
  const at = h.indexOf(n, Math.min(pos, h.length));
  if (at < 0) return false;
  let count = 0;
  for (let i = 0; i < at; i++) if (!isContinuation(h.charCodeAt(i))) count++;
  return count;
}

export function mbStripos(hay: string, needle: string, offset = 0): number | false {
  // PHP 8.2 case-folds the haystack first and takes an empty result as "not found", before it
  // looks at the offset: an empty haystack is false whatever the needle and offset (D328).
  if (hay === '') return false;
  return mbSearch('mb_stripos', hay, needle, offset, true);
}

/**
 * The optional $encoding argument of the mb_* functions: null or UTF-8 (the internal
 * encoding). Other encodings would need their tables and are refused clearly.
 */
export function checkMbEncoding(enc: string | null, fn: string, n: number): void {
  if (enc === null || /^utf-?8$/i.test(enc.trim())) return;
  throw valueError(fn, n, 'encoding', `"${enc}" is not supported here (only UTF-8)`);
}
