/**
 * `s.replace(re, replacer)` for a global `re`, in steps the CPU timeout can stop. V8's global
 * replace finds every match in one native call before it calls a replacer function, and builds a
 * string replacement entirely natively: over a template's 16M-character string with a match per
 * character that is 1.9 s (function) or 2.7 s (string) that isolated-vm cannot interrupt. Up to
 * NATIVE_REPLACE_MAX characters, a few milliseconds at worst, the native replace runs; a longer
 * subject is matched one `exec` at a time and the result joined a batch of pieces at a time.
 */
import { checkStringLength } from './limits.js';

export const NATIVE_REPLACE_MAX = 64 * 1024;
const BATCH = 4096;

/** `what` names the caller when the result would pass the string limit (E_SIZE_LIMIT). */
export function replaceEach(
  s: string,
  re: RegExp,
  replacer: (match: string, ...groups: string[]) => string,
  what: string,
): string {
  if (!re.global) throw new Error('replaceEach needs a global regular expression');
  if (s.length <= NATIVE_REPLACE_MAX) {
    const out = s.replace(re, replacer);
    checkStringLength(out.length, what);
    return out;
  }
  re.lastIndex = 0;
  let out = '';
  const pieces: string[] = [];
  let size = 0;
  let last = 0;
  for (let m = re.exec(s); m !== null; m = re.exec(s)) {
    // unset groups are undefined, as String.prototype.replace passes them
    const kept = s.slice(last, m.index);
    const put = replacer(...(m as unknown as [string, ...string[]]));
    pieces.push(kept, put);
    size += kept.length + put.length;
    checkStringLength(size, what);
    last = m.index + m[0].length;
    if (m[0] === '') re.lastIndex = nextIndex(s, re.lastIndex, re.unicode);
    if (pieces.length >= BATCH) out += pieces.splice(0).join('');
  }
  checkStringLength(size + s.length - last, what);
  pieces.push(s.slice(last));
  return out + pieces.join('');
}

/** AdvanceStringIndex: after an empty match, one code unit, or one code point in Unicode mode. */
function nextIndex(s: string, i: number, unicode: boolean): number {
  if (!unicode || i + 1 >= s.length) return i + 1;
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? i + 2 : i + 1;
}

/**
 * encodeURIComponent over a long string a slice at a time (never splitting a surrogate pair):
 * in one call, 16M characters take ~300 ms of native work.
 */
export function encodeUriComponentEach(s: string, what: string): string {
  if (s.length <= NATIVE_REPLACE_MAX) return encodeURIComponent(s);
  let out = '';
  for (let i = 0; i < s.length;) {
    let end = Math.min(s.length, i + NATIVE_REPLACE_MAX);
    if (end < s.length && (s.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
    out += encodeURIComponent(s.slice(i, end));
    checkStringLength(out.length, what);
    i = end;
  }
  return out;
}

/** `s` as a regular expression's source that matches it literally (without the `u` flag). */
export function literalPattern(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
