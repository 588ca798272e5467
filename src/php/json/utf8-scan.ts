/**
 * PHP's php_next_utf8_char (ext/standard/html.c): reads one UTF-8 character and, on an
 * invalid sequence, says how many bytes PHP skips. json_encode's INVALID_UTF8_SUBSTITUTE
 * writes one U+FFFD per skip, so the skip lengths must be PHP's.
 */

const lead = (c: number | undefined) => c !== undefined && (c < 0x80 || (c >= 0xc2 && c <= 0xf4));
const trail = (c: number | undefined) => c !== undefined && c >= 0x80 && c <= 0xbf;

/** Code point (or -1 when invalid) and the number of bytes consumed. */
export function nextUtf8(b: Uint8Array, pos: number): [number, number] {
  const c = b[pos];
  const avail = b.length - pos;
  if (c < 0x80) return [c, 1];
  if (c < 0xc2) return [-1, 1];
  if (c < 0xe0) {
    if (avail < 2) return [-1, 1];
    if (!trail(b[pos + 1])) return [-1, lead(b[pos + 1]) ? 1 : 2];
    return [((c & 0x1f) << 6) | (b[pos + 1] & 0x3f), 2];
  }
  if (c < 0xf0) {
    if (avail < 3 || !trail(b[pos + 1]) || !trail(b[pos + 2])) {
      if (avail < 2 || lead(b[pos + 1])) return [-1, 1];
      if (avail < 3 || lead(b[pos + 2])) return [-1, 2];
      return [-1, 3];
    }
    const cp = ((c & 0x0f) << 12) | ((b[pos + 1] & 0x3f) << 6) | (b[pos + 2] & 0x3f);
    if (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)) return [-1, 3];
    return [cp, 3];
  }
  if (c < 0xf5) {
    if (avail < 4 || !trail(b[pos + 1]) || !trail(b[pos + 2]) || !trail(b[pos + 3])) {
      if (avail < 2 || lead(b[pos + 1])) return [-1, 1];
      if (avail < 3 || lead(b[pos + 2])) return [-1, 2];
      if (avail < 4 || lead(b[pos + 3])) return [-1, 3];
      return [-1, 4];
    }
    const cp = ((c & 0x07) << 18) | ((b[pos + 1] & 0x3f) << 12) | ((b[pos + 2] & 0x3f) << 6) | (b[pos + 3] & 0x3f);
    if (cp < 0x10000 || cp > 0x10ffff) return [-1, 4];
    return [cp, 4];
  }
  return [-1, 1];
}
