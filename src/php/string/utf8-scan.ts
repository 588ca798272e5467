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
