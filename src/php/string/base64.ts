/** base64_encode / base64_decode on bytes, with PHP's lenient and strict decoding. */
import { fromBinary, toBinary } from '../../runtime/bytes.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function base64Encode(s: string): string {
  const b = toBinary(s);
  let out = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b.charCodeAt(i) << 16) | ((b.charCodeAt(i + 1) || 0) << 8) | (b.charCodeAt(i + 2) || 0);
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63];
    out += i + 1 < b.length ? ALPHABET[(n >> 6) & 63] : '=';
    out += i + 2 < b.length ? ALPHABET[n & 63] : '=';
  }
  return out;
}

/**
 * php_base64_decode_ex: non-alphabet characters are skipped (strict: only whitespace is),
 * `=` is skipped (strict: only allowed as proper padding at the end); false when strict and malformed.
 */
export function base64Decode(s: string, strict = false): string | false {
  const bin = toBinary(s);
  let bits = 0;
  let nbits = 0;
  let out = '';
  let i = 0;
  let padding = 0;
  let j = 0; // decoded sextets
  for (; i < bin.length; i++) {
    const ch = bin[i];
    if (ch === '=') {
      padding++;
      continue;
    }
    const v = ALPHABET.indexOf(ch);
    if (v < 0) {
      if (!strict) continue;
      if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n') continue;
      return false;
    }
    if (padding && strict) return false; // data after padding (lenient mode decodes on)
    bits = (bits << 6) | v;
    nbits += 6;
    j++;
    if (nbits >= 8) {
      nbits -= 8;
      out += String.fromCharCode((bits >> nbits) & 0xff);
      bits &= (1 << nbits) - 1;
    }
  }
  if (strict) {
    // A single leftover sextet, or padding that does not complete the last group.
    if (j % 4 === 1) return false;
    if (padding && (padding > 2 || (j + padding) % 4 !== 0)) return false;
  }
  return fromBinary(out);
}
