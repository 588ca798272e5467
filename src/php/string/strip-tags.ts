/**
 * PHP's strip_tags (php_strip_tags_ex in ext/standard/string.c, PHP 8.2), transcribed state
 * for state so that its quirks survive: quotes inside tags, `<` nesting depth, comments,
 * `<?php ... ?>` blocks, `<!DOCTYPE>`, NUL bytes dropped, and allowed tags matched by name.
 * Works on the bytes (a binary string), as PHP does.
 */
import { fromBinary, toBinary } from '../../value/bytes.js';
import { replaceEach } from '../../value/replace-each.js';

const isSpace = (c: string | undefined) =>
  c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r';

/** C's tolower in the C locale: ASCII letters only. */
function asciiLower(s: string): string {
  return replaceEach(s, /[A-Z]+/g, (m) => m.toLowerCase(), 'strip_tags');
}

/** php_tag_find: is the tag in `tag` (`<...>`) one of the allowed `<a><b>` set? */
function tagAllowed(tag: string, set: string): boolean {
  let norm = '';
  let started = false;
  for (let t = 0; t < tag.length; t++) {
    const c = asciiLower(tag[t]);
    if (c === '<') norm += c;
    else if (c === '>') break;
    else if (!isSpace(c)) {
      started = true;
      if (c !== '/' || (tag[t - 1] !== '<' && tag[t + 1] !== '>')) norm += c;
    } else if (started) break;
  }
  return set.includes(norm + '>');
}

/**
 * Builds PHP's allowed-tag string from strip_tags' second argument: a string such as
 * `<a><b>` is used as is (lowercased), a list of names becomes `<name>` for each.
 */
export function allowedTagsString(allowed: string | string[] | null): string | null {
  if (allowed === null) return null;
  if (Array.isArray(allowed)) return asciiLower(allowed.map((t) => `<${t}>`).join(''));
  return asciiLower(allowed);
}

export function stripTags(s: string, allowed: string | null = null): string {
  if (!/[<>\0]/.test(s)) return s;
  const allow = allowed === null ? null : asciiLower(toBinary(allowed));
  const buf = toBinary(s);
  const end = buf.length;
  let out = '';
  let tag = '';
  let state = 0;
  let depth = 0;
  let inQ = '';
  let lc = '';
  let br = 0;
  let isXml = false;
  const prev = (p: number, k: number) => (p - k >= 0 ? buf[p - k] : '');
  const prevIs = (p: number, k: number, chars: string) => chars.includes(prev(p, k)) && prev(p, k) !== '';

  for (let p = 0; p < end; p++) {
    const c = buf[p];
    if (state === 0) {
      switch (c) {
        case '\0':
          break;
        case '<':
          if (inQ) break;
          if (isSpace(buf[p + 1])) {
            out += c;
            break;
          }
          lc = '<';
          state = 1;
          if (allow !== null) tag += '<';
          break;
        case '>':
          if (depth) {
            depth--;
            break;
          }
          if (inQ) break;
          out += c;
          break;
        default:
          out += c;
      }
    } else if (state === 1) {
      switch (c) {
        case '\0':
          break;
        case '<':
          if (inQ) break;
          if (isSpace(buf[p + 1])) {
            if (allow !== null) tag += c;
            break;
          }
          depth++;
          break;
        case '>':
          if (depth) {
            depth--;
            break;
          }
          if (inQ) break;
          lc = '>';
          if (isXml && prev(p, 1) === '-') break;
          inQ = '';
          state = 0;
          isXml = false;
          if (allow !== null) {
            tag += '>';
            if (tagAllowed(tag, allow)) out += tag;
            tag = '';
          }
          break;
        case '"':
        case "'":
          if (p !== 0 && (!inQ || c === inQ)) inQ = inQ ? '' : c;
          if (allow !== null) tag += c;
          break;
        case '!':
          if (prev(p, 1) === '<') {
            state = 3;
            lc = c;
          } else if (allow !== null) tag += c;
          break;
        case '?':
          if (prev(p, 1) === '<') {
            br = 0;
            state = 2;
          } else if (allow !== null) tag += c;
          break;
        default:
          if (allow !== null) tag += c;
      }
    } else if (state === 2) {
      switch (c) {
        case '(':
          if (lc !== '"' && lc !== "'") {
            lc = '(';
            br++;
          }
          break;
        case ')':
          if (lc !== '"' && lc !== "'") {
            lc = ')';
            br--;
          }
          break;
        case '>':
          if (depth) {
            depth--;
            break;
          }
          if (inQ) break;
          if (!br && lc !== '"' && prev(p, 1) === '?') {
            inQ = '';
            state = 0;
            tag = '';
          }
          break;
        case '"':
        case "'":
          if (p >= 1 && prev(p, 1) !== '\\') {
            if (lc === c) lc = '';
            else if (lc !== '\\') lc = c;
            if (p !== 0 && (!inQ || c === inQ)) inQ = inQ ? '' : c;
          }
          break;
        case 'l':
        case 'L':
          // `<?xml` is not PHP: back to a plain tag
          if (p > 4 && prevIs(p, 1, 'mM') && prevIs(p, 2, 'xX') && prev(p, 3) === '?' && prev(p, 4) === '<') {
            state = 1;
            isXml = true;
          }
          break;
      }
    } else if (state === 3) {
      switch (c) {
        case '>':
          if (depth) {
            depth--;
            break;
          }
          if (inQ) break;
          inQ = '';
          state = 0;
          tag = '';
          break;
        case '"':
        case "'":
          if (p !== 0 && prev(p, 1) !== '\\' && (!inQ || c === inQ)) inQ = inQ ? '' : c;
          break;
        case '-':
          if (p >= 2 && prev(p, 1) === '-' && prev(p, 2) === '!') state = 4;
          break;
        case 'E':
        case 'e':
          // <!DOCTYPE is a plain tag
          if (p > 6 && 'doctyp'.split('').every((ch, k) => asciiLower(prev(p, 6 - k)) === ch)) state = 1;
          break;
      }
    } else if (c === '>' && !inQ && p >= 2 && prev(p, 1) === '-' && prev(p, 2) === '-') {
      // state 4: inside <!-- ... -->
      inQ = '';
      state = 0;
      tag = '';
    }
  }
  return fromBinary(out);
}
