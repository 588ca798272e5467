/**
 * PHP's nl2br(): `br` before each \r\n, \n\r, \n or \r, the break kept.
 *
 * Text up to NATIVE_REPLACE_MAX characters is scanned with `indexOf` for each of the two
 * characters and copied in slices: the global `replace` with a callback it replaces made a match
 * object and a call per break, and is ~3x slower on a mail footer of four lines (D272). Longer text
 * goes through replaceEach, in steps the CPU timeout can stop.
 */
import { checkStringLength } from '../../value/limits.js';
import { NATIVE_REPLACE_MAX, replaceEach } from '../../value/replace-each.js';

export function nl2br(s: string, br: string): string {
  if (s.length > NATIVE_REPLACE_MAX) return replaceEach(s, /\r\n|\n\r|\n|\r/g, (m) => br + m, 'nl2br');
  let n = s.indexOf('\n');
  let r = s.indexOf('\r');
  if (n < 0 && r < 0) return s;
  let out = '';
  let copied = 0;
  for (;;) {
    const at = n < 0 ? r : r < 0 ? n : n < r ? n : r;
    if (at < 0) break;
    // A break is copied with the text after it; `br` goes in front.
    out += s.slice(copied, at) + br;
    copied = at;
    // \r\n and \n\r are one break each: the search goes on after both characters.
    const pair = s.charCodeAt(at + 1) === (s.charCodeAt(at) === 10 ? 13 : 10);
    const next = at + (pair ? 2 : 1);
    if (n >= 0 && n < next) n = s.indexOf('\n', next);
    if (r >= 0 && r < next) r = s.indexOf('\r', next);
  }
  out += s.slice(copied);
  checkStringLength(out.length, 'nl2br');
  return out;
}
