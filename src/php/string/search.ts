/** Byte-based search functions: strpos, stripos, strstr, substr_count, str_replace. */
import { fromBinary, isAscii, toBinary } from '../../value/bytes.js';
import { MAX_ARRAY_LENGTH, MAX_STRING_LENGTH, checkStringLength } from '../../value/limits.js';
import { valueError } from '../args.js';
import { strtolower } from './case.js';

function offsetIn(fn: string, hayLen: number, offset: number, n = 3): number {
  if (offset < 0) offset += hayLen;
  if (offset < 0 || offset > hayLen) throw valueError(fn, n, 'offset', 'must be contained in argument #1 ($haystack)');
  return offset;
}

export function strpos(hay: string, needle: string, offset = 0, fn = 'strpos'): number | false {
  const h = toBinary(hay);
  const at = h.indexOf(toBinary(needle), offsetIn(fn, h.length, offset));
  return at < 0 ? false : at;
}

export function stripos(hay: string, needle: string, offset = 0): number | false {
  return strpos(strtolower(hay), strtolower(needle), offset, 'stripos');
}

export function strstr(hay: string, needle: string, beforeNeedle = false): string | false {
  const h = toBinary(hay);
  const at = h.indexOf(toBinary(needle));
  if (at < 0) return false;
  return fromBinary(beforeNeedle ? h.slice(0, at) : h.slice(at));
}

export function substrCount(hay: string, needle: string, offset = 0, length: number | null = null): number {
  if (needle === '') throw valueError('substr_count', 2, 'needle', 'cannot be empty');
  let h = toBinary(hay);
  const start = offsetIn('substr_count', h.length, offset);
  let end = h.length;
  if (length !== null) {
    end = length < 0 ? h.length + length : start + length;
    if (end < start || end > h.length)
      throw valueError('substr_count', 4, 'length', 'must be contained in argument #1 ($haystack)');
  }
  h = h.slice(start, end);
  const n = toBinary(needle);
  let count = 0;
  for (let at = h.indexOf(n); at >= 0; at = h.indexOf(n, at + n.length)) count++;
  return count;
}

/** str_replace on one subject string; `count` receives the number of replacements. */
export function strReplaceOne(subject: string, search: string, replace: string): string {
  if (search === '' || subject === '') return subject;
  // UTF-8 text: a search string that is itself valid text cannot match inside a character.
  if (isAscii(search) || !/[\udc80-\udcff]/.test(subject + search)) return replaceEvery(subject, search, replace);
  return fromBinary(replaceEvery(toBinary(subject), toBinary(search), toBinary(replace)));
}

/** A text this short is replaced by `replaceShort`. */
const SHORT_TEXT = 4096;

/** How much longer than `text` its replacement can grow: every place `sep` could match, replaced. */
function longest(text: string, sep: string, joiner: string): number {
  return joiner.length > sep.length ? Math.floor(text.length / sep.length) * (joiner.length - sep.length) : 0;
}

/**
 * replaceEvery of a short text that cannot outgrow the limit (the caller checks `longest`): the
 * pieces between matches found by `indexOf` and joined as they are found, with no array of
 * pieces. Over the constructs' bodies (190 characters, 27 matches) ~2x faster than split and join
 * in plain Node (bench/README.md, D377).
 */
function replaceShort(text: string, sep: string, joiner: string): string {
  let at = text.indexOf(sep);
  if (at < 0) return text;
  let out = '';
  let from = 0;
  for (; at >= 0; at = text.indexOf(sep, from)) {
    out += text.slice(from, at) + joiner;
    from = at + sep.length;
  }
  return out + text.slice(from);
}

/**
 * text.split(sep).join(joiner), size-checked before the result is built. A text that can hold
 * more than MAX_ARRAY_LENGTH separators is counted and joined a batch at a time, in a loop the
 * CPU timeout can stop: one native split of a 16M-character text is an array of up to 16M
 * pieces (128 MB) and time no one can interrupt.
 */
function replaceEvery(text: string, sep: string, joiner: string): string {
  if (text.length <= SHORT_TEXT && text.length + longest(text, sep, joiner) <= MAX_STRING_LENGTH)
    return replaceShort(text, sep, joiner);
  const check = (n: number) => checkStringLength(text.length + n * (joiner.length - sep.length), 'str_replace');
  if (text.length < MAX_ARRAY_LENGTH * sep.length) {
    const parts = text.split(sep);
    if (parts.length === 1) return text;
    check(parts.length - 1);
    return parts.join(joiner);
  }
  let n = 0;
  for (let at = text.indexOf(sep); at >= 0; at = text.indexOf(sep, at + sep.length)) n++;
  if (n === 0) return text;
  check(n);
  let out = '';
  const pieces: string[] = [];
  let from = 0;
  for (let at = text.indexOf(sep); at >= 0; at = text.indexOf(sep, from)) {
    pieces.push(text.slice(from, at));
    from = at + sep.length;
    // a piece always follows a flushed batch, so the joiner goes after it
    if (pieces.length === MAX_ARRAY_LENGTH) out += pieces.splice(0).join(joiner) + joiner;
  }
  pieces.push(text.slice(from));
  return out + pieces.join(joiner);
}
