/**
 * PHP strings are bytes; ours are JavaScript strings holding UTF-8 text. Byte-based
 * functions (strlen, substr, truncate, spacify...) work on the UTF-8 bytes and may cut a
 * character in half. Such stray bytes are kept in the string as lone surrogates
 * U+DC80..U+DCFF (Python's "surrogateescape"), so that no byte is lost: `toBytes` turns
 * them back into the original byte, and the output of a render is exact to the byte.
 *
 * Isolates have no TextEncoder, so the codec is written out here.
 */

const ASCII = /^[\x00-\x7f]*$/;

export function isAscii(s: string): boolean {
  return ASCII.test(s);
}

/** UTF-8 bytes of `s`; escaped stray bytes come back as themselves. */
export function toBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length * 3);
  let j = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[j++] = c;
      continue;
    }
    if (c >= 0xdc80 && c <= 0xdcff) {
      out[j++] = c - 0xdc00;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
        out[j++] = 0xf0 | (c >> 18);
        out[j++] = 0x80 | ((c >> 12) & 0x3f);
        out[j++] = 0x80 | ((c >> 6) & 0x3f);
        out[j++] = 0x80 | (c & 0x3f);
        continue;
      }
    }
    if (c < 0x800) {
      out[j++] = 0xc0 | (c >> 6);
      out[j++] = 0x80 | (c & 0x3f);
    } else {
      out[j++] = 0xe0 | (c >> 12);
      out[j++] = 0x80 | ((c >> 6) & 0x3f);
      out[j++] = 0x80 | (c & 0x3f);
    }
  }
  return out.subarray(0, j);
}

const DECODE_CHUNK = 4096;

/**
 * Decodes UTF-8; every byte that is not part of a valid sequence becomes U+DC80+byte. The code
 * units go into a typed array made a string every 4,096 units (pushed to an array and spread, a
 * unit cost ~18 ns inside an isolate; in a typed array ~2). A sequence of n bytes gives at most
 * n units, so a short text needs no more room than its length; +1 for a pair at a chunk's end.
 */
export function fromBytes(b: Uint8Array): string {
  const units = new Uint16Array(Math.min(b.length, DECODE_CHUNK) + 1);
  let out = '';
  let j = 0;
  for (let i = 0; i < b.length;) {
    const c = b[i];
    let cp = -1;
    let n = 0;
    if (c < 0x80) {
      cp = c;
      n = 1;
    } else if (c >= 0xc2 && c <= 0xdf && cont(b, i + 1)) {
      cp = ((c & 0x1f) << 6) | (b[i + 1] & 0x3f);
      n = 2;
    } else if (c >= 0xe0 && c <= 0xef && cont(b, i + 1) && cont(b, i + 2)) {
      cp = ((c & 0x0f) << 12) | ((b[i + 1] & 0x3f) << 6) | (b[i + 2] & 0x3f);
      n = 3;
      if (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)) cp = -1;
    } else if (c >= 0xf0 && c <= 0xf4 && cont(b, i + 1) && cont(b, i + 2) && cont(b, i + 3)) {
      cp = ((c & 0x07) << 18) | ((b[i + 1] & 0x3f) << 12) | ((b[i + 2] & 0x3f) << 6) | (b[i + 3] & 0x3f);
      n = 4;
      if (cp < 0x10000 || cp > 0x10ffff) cp = -1;
    }
    if (cp < 0) {
      units[j++] = 0xdc00 + c;
      i++;
    } else if (cp >= 0x10000) {
      cp -= 0x10000;
      units[j++] = 0xd800 + (cp >> 10);
      units[j++] = 0xdc00 + (cp & 0x3ff);
      i += n;
    } else {
      units[j++] = cp;
      i += n;
    }
    if (j >= DECODE_CHUNK) {
      out += fromCharCodes(units.subarray(0, j));
      j = 0;
    }
  }
  return out + fromCharCodes(units.subarray(0, j));
}

function cont(b: Uint8Array, i: number): boolean {
  return i < b.length && (b[i] & 0xc0) === 0x80;
}

/** strlen(): the number of bytes. */
export function byteLength(s: string): number {
  if (ASCII.test(s)) return s.length;
  return toBytes(s).length;
}

/** substr() of a string known to be ASCII (isAscii): characters are bytes. */
export function asciiSubstr(s: string, start: number, length?: number | null): string {
  return phpSlice(s, s.length, start, length, (a, z) => s.slice(a, z));
}

/** substr() on bytes, with PHP 8's start/length rules. */
export function byteSubstr(s: string, start: number, length?: number | null): string {
  if (ASCII.test(s)) return asciiSubstr(s, start, length);
  const b = toBytes(s);
  return phpSlice(s, b.length, start, length, (a, z) => fromBytes(b.subarray(a, z)));
}

function phpSlice(
  _s: string,
  len: number,
  start: number,
  length: number | null | undefined,
  cut: (a: number, z: number) => string,
): string {
  if (start > len) return '';
  if (start < 0) start = Math.max(0, len + start);
  let end = len;
  if (length !== null && length !== undefined) {
    end = length < 0 ? len + length : start + length;
    if (end < start) return '';
    end = Math.min(end, len);
  }
  return cut(start, end);
}

/** The bytes as a "binary string": one char per byte (for hashing and escaping helpers). */
export function toBinary(s: string): string {
  if (ASCII.test(s)) return s;
  return fromCharCodes(toBytes(s));
}

/**
 * One char per element (bytes give a "binary string"), made in chunks that stay within the
 * arguments limit. `apply` takes the typed array as it is; a spread (`...`) walks it through its
 * iterator, ~4x slower per call inside an isolate.
 */
export function fromCharCodes(units: Uint8Array | Uint16Array): string {
  let out = '';
  for (let i = 0; i < units.length; i += 4096)
    out += String.fromCharCode.apply(null, units.subarray(i, i + 4096) as unknown as number[]);
  return out;
}

export function fromBinary(bin: string): string {
  if (ASCII.test(bin)) return bin;
  const b = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) b[i] = bin.charCodeAt(i) & 0xff;
  return fromBytes(b);
}
