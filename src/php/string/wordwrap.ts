/**
 * PHP's wordwrap() (ext/standard/string.c), on bytes: only the space character breaks.
 *
 * Both of PHP's paths are here, read by character code with the output built from slices of the
 * text. Text and break that are ASCII are their own bytes: the binary round trip and the result's
 * ASCII test are skipped for them (the mail page's `wordwrap:60:"\n":true` of ~300 characters
 * scanned each character as a one-character string and tested the text for ASCII twice, D272).
 */
import { fromBinary, isAscii, toBinary } from '../../value/bytes.js';
import { checkStringLength, MAX_STRING_LENGTH } from '../../value/limits.js';
import { valueError } from '../args.js';

export function wordwrap(s: string, width = 75, brk = '\n', cut = false): string {
  const ascii = isAscii(s) && isAscii(brk);
  const text = ascii ? s : toBinary(s);
  const br = ascii ? brk : toBinary(brk);
  if (text.length === 0) return s;
  if (br.length === 0) throw valueError('wordwrap', 3, 'break', 'cannot be empty');
  if (width === 0 && cut)
    throw valueError('wordwrap', 4, 'cut_long_words', 'cannot be true when argument #2 ($width) is 0');
  const bl = br.length;
  const len = text.length;
  // At most one break per space, plus one every `width` bytes when cutting. Every byte a space
  // bounds that from above: the spaces are counted only when that bound is past the limit.
  const cuts = cut ? Math.ceil(len / Math.max(1, width)) : 0;
  if (len + (len + 1 + cuts) * bl > MAX_STRING_LENGTH) {
    let spaces = 0;
    for (let at = text.indexOf(' '); at >= 0; at = text.indexOf(' ', at + 1)) spaces++;
    checkStringLength(len + (spaces + 1 + cuts) * bl, 'wordwrap');
  }
  const out = bl === 1 && !cut ? wrapInPlace(text, width, br) : wrap(text, width, br, cut);
  return ascii ? out : fromBinary(out);
}

/**
 * PHP's in-place path (a one-byte break, no forced cuts): spaces become the break. PHP marks the
 * same space twice at most (a word longer than the width right after a break at that space), so a
 * mark at or before the last one copied is already in the output.
 */
function wrapInPlace(text: string, width: number, br: string): string {
  const len = text.length;
  const brCode = br.charCodeAt(0);
  let out = '';
  let copied = 0;
  let laststart = 0;
  let lastspace = 0;
  for (let current = 0; current < len; current++) {
    const c = text.charCodeAt(current);
    if (c === brCode) {
      laststart = lastspace = current + 1;
    } else if (c === 32) {
      if (current - laststart >= width) {
        out += text.slice(copied, current) + br;
        copied = current + 1;
        laststart = current + 1;
      }
      lastspace = current;
    } else if (current - laststart >= width && laststart !== lastspace) {
      if (lastspace >= copied) {
        out += text.slice(copied, lastspace) + br;
        copied = lastspace + 1;
      }
      laststart = lastspace + 1;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** PHP's other path: a break of several bytes, or long words cut. */
function wrap(text: string, width: number, br: string, cut: boolean): string {
  const len = text.length;
  const bl = br.length;
  const br0 = br.charCodeAt(0);
  let out = '';
  let laststart = 0;
  let lastspace = 0;
  let current = 0;
  for (; current < len; current++) {
    const c = text.charCodeAt(current);
    if (c === br0 && current + bl < len && (bl === 1 || text.startsWith(br, current))) {
      out += text.slice(laststart, current + bl);
      current += bl - 1;
      laststart = lastspace = current + 1;
    } else if (c === 32) {
      if (current - laststart >= width) {
        out += text.slice(laststart, current) + br;
        laststart = current + 1;
      }
      lastspace = current;
    } else if (current - laststart >= width && cut && laststart >= lastspace) {
      out += text.slice(laststart, current) + br;
      laststart = lastspace = current;
    } else if (current - laststart >= width && laststart < lastspace) {
      out += text.slice(laststart, lastspace) + br;
      laststart = lastspace = lastspace + 1;
    }
  }
  if (laststart !== current) out += text.slice(laststart, current);
  return out;
}
