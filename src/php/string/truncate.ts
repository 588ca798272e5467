/**
 * Smarty 2.6's truncate algorithm, shared by truncate (bytes) and the platform's mb_truncate
 * (characters): the PHP body is
 *
 *   if ($length == 0) return '';
 *   if (strlen($string) > $length) {
 *     $length -= min($length, strlen($etc));
 *     if (!$break_words && !$middle)
 *       $string = preg_replace('/\s+?(\S+)?$/', '', substr($string, 0, $length+1));
 *     if (!$middle) return substr($string, 0, $length) . $etc;
 *     return substr($string, 0, $length/2) . $etc . substr($string, -$length/2);
 *   }
 *   return $string;
 */
import { type Value, num } from '../../value/value.js';
import { toBool, toNumber } from '../../value/convert.js';
import { compare, looseEq } from '../../value/compare.js';
import { asciiSubstr, isAscii } from '../../value/bytes.js';

export interface Measure {
  len(s: string): number;
  sub(s: string, start: number, length?: number): string;
  /** Set for bytes: every UTF-16 unit is at least one byte, so len(s) >= s.length. */
  countsBytes?: boolean;
}

// PCRE's `$` (no D flag) also matches before a final newline; `\s` is ASCII.
const LAST_WORD = /[ \t\n\v\f\r]+?([^ \t\n\v\f\r]+)?(?=\n?$)/g;

/** ASCII text has as many bytes as characters: substr() and mb_substr() agree on it. */
const ASCII_MEASURE: Measure = { len: (s) => s.length, sub: asciiSubstr };

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);

/**
 * preg_replace('/\s+?(\S+)?$/', '', t). Without a newline `$` is only the end, and the leftmost
 * match starts the last whitespace run: it and the word after it go. With one, the regex decides.
 */
function dropLastWord(t: string): string {
  if (t.includes('\n')) return t.replace(LAST_WORD, '');
  let q = t.length;
  while (q > 0 && !isSpace(t.charCodeAt(q - 1))) q--;
  if (q === 0) return t;
  while (q > 0 && isSpace(t.charCodeAt(q - 1))) q--;
  return t.slice(0, q);
}

/**
 * The byte measure's common case without reading the whole text: longer in UTF-16 units than
 * `length` means longer in bytes, so it is cut, and only its first L+1 bytes are read; when those
 * are ASCII they are its first L+1 characters, and the ASCII measure gives the same result.
 * (A body of a few hundred characters cut at 80 was scanned in full before.)
 *
 * `headCutLength` checks the arguments and gives L (-1: the cut does not apply); `headCut` cuts
 * one text, undefined where the general path must decide.
 */
function headCutLength(length: Value, etc: string, middle: Value): number {
  if (typeof length !== 'number' || !Number.isInteger(length) || length <= 0 || toBool(middle) || !isAscii(etc))
    return -1;
  return length - Math.min(length, etc.length);
}

function headCut(s: string, length: number, L: number, etc: string, keepWords: boolean): string | undefined {
  if (s.length <= length) return undefined;
  const head = s.slice(0, L + 1);
  if (!isAscii(head)) return undefined;
  return (keepWords ? dropLastWord(head) : head).slice(0, L) + etc;
}

/**
 * The character measure's (mb_truncate's) common case, as headCut is the byte measure's: a text
 * of at most `length` UTF-16 units has at most `length` characters and is kept as it is; a longer
 * one whose first `length`+1 units hold no surrogate has more than `length` characters, and its
 * first L+1 units are its first L+1 characters, so slices cut it as mb_substr would. Japanese
 * bodies were measured in full (mb_strlen's scan, an ASCII scan) before.
 *
 * `charCutLength` checks the arguments (an int length > 0, no middle, an `etc` without surrogates,
 * whose characters are its units) and gives L, or -1 where the general path always decides.
 */
function charCutLength(length: Value, etc: string, middle: Value): number {
  if (typeof length !== 'number' || !Number.isInteger(length) || length <= 0 || toBool(middle)) return -1;
  if (!unitsAreChars(etc, etc.length)) return -1;
  return length - Math.min(length, etc.length);
}

function charHeadCut(
  s: string,
  length: number,
  L: number,
  etc: string,
  keepWords: boolean,
  m: Measure,
  breakWords: Value,
  middle: Value,
): string | undefined {
  if (s.length <= length) return undefined;
  if (!unitsAreChars(s, length + 1)) return truncateMeasured(m, s, length, etc, breakWords, middle);
  const head = s.slice(0, L + 1);
  return (keepWords ? dropLastWord(head) : head).slice(0, L) + etc;
}

/** No surrogate among the first `end` units of `s`: each of them is one character. */
function unitsAreChars(s: string, end: number): boolean {
  for (let i = 0; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return false;
  }
  return true;
}

/** The truncated string, or undefined when the input is returned as it is (not even converted). */
export function truncateWith(
  m: Measure,
  s: string,
  length: Value,
  etc: string,
  breakWords: Value,
  middle: Value,
): string | undefined {
  if (m.countsBytes) {
    const L = headCutLength(length, etc, middle);
    const cut = L >= 0 ? headCut(s, length as number, L, etc, !toBool(breakWords)) : undefined;
    if (cut !== undefined) return cut;
  }
  return truncateMeasured(m, s, length, etc, breakWords, middle);
}

/**
 * truncateWith with the arguments a template wrote as literals: their checks are done once,
 * where truncate runs once per item of a loop.
 */
export function truncateFixed(
  m: Measure,
  length: Value,
  etc: string,
  breakWords: Value,
  middle: Value,
): (s: string) => string | undefined {
  if (!m.countsBytes) {
    const Lc = charCutLength(length, etc, middle);
    if (Lc >= 0) {
      const keepWords = !toBool(breakWords);
      return (s) => charHeadCut(s, length as number, Lc, etc, keepWords, m, breakWords, middle);
    }
  }
  const L = m.countsBytes ? headCutLength(length, etc, middle) : -1;
  if (L < 0) return (s) => truncateMeasured(m, s, length, etc, breakWords, middle);
  const keepWords = !toBool(breakWords);
  return (s) =>
    headCut(s, length as number, L, etc, keepWords) ?? truncateMeasured(m, s, length, etc, breakWords, middle);
}

function truncateMeasured(
  m: Measure,
  s: string,
  length: Value,
  etc: string,
  breakWords: Value,
  middle: Value,
): string | undefined {
  if (typeof length === 'number' ? length === 0 : looseEq(length, 0)) return '';
  if (isAscii(s) && isAscii(etc)) m = ASCII_MEASURE;
  const n = m.len(s);
  if (typeof length === 'number' && Number.isInteger(length) ? n <= length : compare(n, length) <= 0) return undefined;
  const lenNum = num(toNumber(length, '-'));
  let L = lenNum - Math.min(lenNum, m.len(etc));
  L = Math.trunc(L); // substr() takes an int
  if (!toBool(breakWords) && !toBool(middle)) s = dropLastWord(m.sub(s, 0, L + 1));
  if (!toBool(middle)) return m.sub(s, 0, L) + etc;
  const half = Math.trunc(L / 2);
  return m.sub(s, 0, half) + etc + m.sub(s, -half);
}
