/**
 * The sanitizing filters of PHP 8.2 (ext/filter/sanitizing_filters.c). They work on bytes
 * (binary strings, one char per byte) and never fail.
 */
import { fromBinary } from '../../value/bytes.js';
import { replaceEach } from '../../value/replace-each.js';
import { ENT_NOQUOTES, ENT_QUOTES, htmlentities } from '../string/html.js';
import {
  FILTER_FLAG_ALLOW_FRACTION,
  FILTER_FLAG_ALLOW_SCIENTIFIC,
  FILTER_FLAG_ALLOW_THOUSAND,
  FILTER_FLAG_EMPTY_STRING_NULL,
  FILTER_FLAG_ENCODE_AMP,
  FILTER_FLAG_ENCODE_HIGH,
  FILTER_FLAG_ENCODE_LOW,
  FILTER_FLAG_NO_ENCODE_QUOTES,
  FILTER_FLAG_STRIP_BACKTICK,
  FILTER_FLAG_STRIP_HIGH,
  FILTER_FLAG_STRIP_LOW,
} from './constants.js';
import type { FilterInput, Filtered } from './options.js';

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** php_filter_strip: drops bytes >= 127, < 32 and backticks as the flags ask. */
function strip(s: string, flags: number): string {
  if (!(flags & (FILTER_FLAG_STRIP_LOW | FILTER_FLAG_STRIP_HIGH | FILTER_FLAG_STRIP_BACKTICK))) return s;
  let out = '';
  for (const c of s) {
    const b = c.charCodeAt(0);
    if (b >= 127 && flags & FILTER_FLAG_STRIP_HIGH) continue;
    if (b < 32 && flags & FILTER_FLAG_STRIP_LOW) continue;
    if (c === '`' && flags & FILTER_FLAG_STRIP_BACKTICK) continue;
    out += c;
  }
  return out;
}

/** php_filter_encode_html: the chosen bytes become decimal references "&#NN;". */
function encodeHtml(s: string, encode: (byte: number) => boolean): string {
  let out = '';
  for (const c of s) {
    const b = c.charCodeAt(0);
    out += encode(b) ? `&#${b};` : c;
  }
  return out;
}

/** filter_map_apply: keeps only the listed bytes. */
function keepOnly(s: string, allowed: string): string {
  let out = '';
  for (const c of s) if (allowed.includes(c)) out += c;
  return out;
}

export function unsafeRaw({ bin, flags }: FilterInput): Filtered {
  if (flags !== 0 && bin.length > 0) {
    const stripped = strip(bin, flags);
    return fromBinary(
      encodeHtml(
        stripped,
        (b) =>
          (b === 0x26 && (flags & FILTER_FLAG_ENCODE_AMP) !== 0) ||
          (b < 32 && (flags & FILTER_FLAG_ENCODE_LOW) !== 0) ||
          (b >= 127 && (flags & FILTER_FLAG_ENCODE_HIGH) !== 0),
      ),
    );
  }
  return bin === '' && flags & FILTER_FLAG_EMPTY_STRING_NULL ? null : fromBinary(bin);
}

export function specialChars({ bin, flags }: FilterInput): Filtered {
  const stripped = strip(bin, flags);
  return fromBinary(
    encodeHtml(
      stripped,
      (b) =>
        b < 32 ||
        b === 0x27 ||
        b === 0x22 ||
        b === 0x3c ||
        b === 0x3e ||
        b === 0x26 ||
        (b >= 127 && (flags & FILTER_FLAG_ENCODE_HIGH) !== 0),
    ),
  );
}

/** htmlentities() with the default charset (UTF-8), no double encoding; invalid UTF-8 gives "". */
export function fullSpecialChars({ text, flags }: FilterInput): Filtered {
  return htmlentities(text, flags & FILTER_FLAG_NO_ENCODE_QUOTES ? ENT_NOQUOTES : ENT_QUOTES, 'utf-8', false);
}

export function encoded({ bin, flags }: FilterInput): Filtered {
  let out = '';
  for (const c of strip(bin, flags)) {
    out +=
      ALNUM.includes(c) || c === '-' || c === '.' || c === '_'
        ? c
        : '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

const EMAIL_CHARS = ALNUM + "!#$%&'*+-=?^_`{|}~@.[]";
// RFC 1738 section 5: safe, extra, national, punctuation and reserved characters.
const URL_CHARS = ALNUM + '$-_.+' + "!*'()," + '{}|\\^~[]`' + '<>#%"' + ';/?:@&=';

export function sanitizeUrlChars(bin: string): string {
  return keepOnly(bin, URL_CHARS);
}

export function sanitizeEmail({ bin }: FilterInput): Filtered {
  return keepOnly(bin, EMAIL_CHARS);
}

export function sanitizeUrl({ bin }: FilterInput): Filtered {
  return keepOnly(bin, URL_CHARS);
}

export function numberInt({ bin }: FilterInput): Filtered {
  return keepOnly(bin, '+-0123456789');
}

export function numberFloat({ bin, flags }: FilterInput): Filtered {
  let allowed = '+-0123456789';
  if (flags & FILTER_FLAG_ALLOW_FRACTION) allowed += '.';
  if (flags & FILTER_FLAG_ALLOW_THOUSAND) allowed += ',';
  if (flags & FILTER_FLAG_ALLOW_SCIENTIFIC) allowed += 'eE';
  return keepOnly(bin, allowed);
}

/** php_addslashes: backslash before ' " and \, NUL becomes \0. */
export function addSlashes({ bin }: FilterInput): Filtered {
  return fromBinary(replaceEach(bin, /['"\\\0]/g, (c) => (c === '\0' ? '\\0' : '\\' + c), 'filter_var'));
}
