/**
 * PHP's UTF-8 scanner from ext/standard/html.c (get_next_char): how htmlspecialchars and
 * htmlentities cut a byte string into characters and how long an invalid sequence is.
 * Works on a binary string (one char per byte).
 */
export interface Scanned {
  /** The code point, or -1 for an invalid sequence. */
  cp: number;
  /** Bytes consumed. */
  len: number;
}

const lead = (c: number) => c < 0x80 || (c >= 0xc2 && c <= 0xf4);
const trail = (c: number) => c >= 0x80 && c <= 0xbf;

export function nextUtf8(bin: string, pos: number): Scanned {
  const avail = bin.length - pos;
  const at = (i: number) => bin.charCodeAt(pos + i);
  const c = at(0);
  if (c < 0x80) return { cp: c, len: 1 };
  if (c < 0xc2) return { cp: -1, len: 1 };
  if (c < 0xe0) {
    if (avail < 2) return { cp: -1, len: 1 };
    if (!trail(at(1))) return { cp: -1, len: lead(at(1)) ? 1 : 2 };
    return { cp: ((c & 0x1f) << 6) | (at(1) & 0x3f), len: 2 };
  }
  if (c < 0xf0) {
    if (avail < 3 || !trail(at(1)) || !trail(at(2))) {
      if (avail < 2 || lead(at(1))) return { cp: -1, len: 1 };
      if (avail < 3 || lead(at(2))) return { cp: -1, len: 2 };
      return { cp: -1, len: 3 };
    }
    const cp = ((c & 0x0f) << 12) | ((at(1) & 0x3f) << 6) | (at(2) & 0x3f);
    if (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)) return { cp: -1, len: 3 };
    return { cp, len: 3 };
  }
  if (c < 0xf5) {
    if (avail < 4 || !trail(at(1)) || !trail(at(2)) || !trail(at(3))) {
      if (avail < 2 || lead(at(1))) return { cp: -1, len: 1 };
      if (avail < 3 || lead(at(2))) return { cp: -1, len: 2 };
      if (avail < 4 || lead(at(3))) return { cp: -1, len: 3 };
      return { cp: -1, len: 4 };
    }
    const cp = ((c & 0x07) << 18) | ((at(1) & 0x3f) << 12) | ((at(2) & 0x3f) << 6) | (at(3) & 0x3f);
    if (cp < 0x10000 || cp > 0x10ffff) return { cp: -1, len: 4 };
    return { cp, len: 4 };
  }
  return { cp: -1, len: 1 };
}

/**
 * mbstring's UTF-8 decoder (PHP 8.2), which the mb_ functions that decode and
 * mb_convert_encoding use: an invalid sequence is its lead byte and the trail bytes valid so
 * far (the second byte's range depends on the lead: E0 A0-BF, ED 80-9F, F0 90-BF, F4 80-8F), so
 * the byte that breaks it starts the next character.
 */
export function nextMbUtf8(bin: string, pos: number): Scanned {
  const c = bin.charCodeAt(pos);
  if (c < 0x80) return { cp: c, len: 1 };
  const n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 1;
  if (n === 1) return { cp: -1, len: 1 };
  const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
  const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
  let cp = c & (n === 2 ? 0x1f : n === 3 ? 0x0f : 0x07);
  for (let k = 1; k < n; k++) {
    const b = pos + k < bin.length ? bin.charCodeAt(pos + k) : -1;
    if (k === 1 ? b < lo || b > hi : b < 0x80 || b > 0xbf) return { cp: -1, len: k };
    cp = (cp << 6) | (b & 0x3f);
  }
  return { cp, len: n };
}
