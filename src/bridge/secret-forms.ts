/**
 * The forms a secret value takes when a server sends it back by accident: the value itself,
 * its case variants and its UTF-8 bytes read as Latin-1, the percent-encodings of the common encoders (upper- and lower-case
 * hex), base64 and base64url at any alignment (so also inside `Basic base64(user:secret)` or
 * a longer encoded blob), HTML escaping, the decoded bytes of a value that is itself base64,
 * and each of those JSON-escaped the way JavaScript, PHP and Python escape strings, once or
 * twice (a JSON document echoed inside another).
 *
 * A host that means to leak a secret can always transform it some other way; these are the
 * forms echo endpoints, error pages, Location headers and JSON APIs produce.
 */
import { fromBytes, toBytes } from '../value/bytes.js';

/** Forms shorter than this would match ordinary text; the raw value is kept whatever its length. */
const MIN_FORM_CHARS = 4;

/**
 * Characters besides A-Za-z0-9 each encoder leaves as they are, and whether it writes a space
 * as `+`. Bytes >= 0x80 are always encoded.
 */
const PRINTABLE = Array.from({ length: 0x5f }, (_, i) => String.fromCharCode(0x21 + i)).join('');
const ENCODERS: readonly { keep: string; plus: boolean }[] = [
  { keep: "-_.!~*'()", plus: false }, // encodeURIComponent
  { keep: '-_.~', plus: false }, // rawurlencode, RFC 3986, Go PathEscape
  { keep: '-_.', plus: true }, // PHP urlencode, http_build_query
  { keep: '*-._', plus: true }, // URLSearchParams, HTML forms
  { keep: '-_.~', plus: true }, // Go QueryEscape, Python quote_plus, Ruby CGI.escape
  { keep: '-_.!*()', plus: true }, // .NET WebUtility.UrlEncode
  { keep: '', plus: false }, // everything but letters and digits
  { keep: "-_.!~*'();/?:@&=+$,#", plus: false }, // encodeURI
  { keep: '-_.~/', plus: false }, // Python quote
  { keep: PRINTABLE.replace(/["#<>']/g, ''), plus: false }, // the WHATWG URL parser, query
  { keep: PRINTABLE.replace(/["#<>?`{}]/g, ''), plus: false }, // the WHATWG URL parser, path
];

const HEX_UPPER = Array.from({ length: 256 }, (_, b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`);
const HEX_LOWER = HEX_UPPER.map((h) => h.toLowerCase());

function percent(bytes: Uint8Array, keep: string, plus: boolean, lower: boolean): string {
  const kept = new Uint8Array(128);
  for (let b = 0; b < 128; b++)
    kept[b] = /[A-Za-z0-9]/.test(String.fromCharCode(b)) || keep.includes(String.fromCharCode(b)) ? 1 : 0;
  const hex = lower ? HEX_LOWER : HEX_UPPER;
  const parts: string[] = [];
  for (const b of bytes) parts.push(b < 128 && kept[b] ? String.fromCharCode(b) : b === 0x20 && plus ? '+' : hex[b]!);
  return parts.join('');
}

/**
 * The base64 characters that depend on the secret's bytes only, for the secret starting at
 * each of the three byte offsets modulo 3 of an encoded stream: whatever precedes or follows
 * it, one of these three appears wherever the secret was encoded.
 */
function base64Cores(bytes: Uint8Array): string[] {
  const out: string[] = [];
  for (let k = 0; k < 3; k++) {
    const buf = Buffer.alloc(k + bytes.length);
    buf.set(bytes, k);
    const b64 = buf.toString('base64');
    const core = b64.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + bytes.length)) / 6));
    out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/** A value that is itself base64 (say, stored `user:password` for Basic authentication): its bytes. */
function base64Decoded(value: string): string | null {
  if (value.length < 8 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return null;
  const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.toString('base64').replace(/=+$/, '') !== value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, ''))
    return null;
  return fromBytes(bytes);
}

function html(value: string): string[] {
  const base = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return [base.replace(/'/g, '&#039;'), base.replace(/'/g, '&#39;'), base.replace(/'/g, '&#x27;')];
}

/** JSON string escaping: JavaScript's, plus `\/` (PHP) and `\uXXXX` for non-ASCII (PHP, Python). */
function json(value: string): string[] {
  const js = JSON.stringify(value).slice(1, -1);
  const ascii = js.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [js, ascii, js.replace(/\//g, '\\/'), ascii.replace(/\//g, '\\/')];
}

/**
 * Every form of `value` to redact, without duplicates; null as soon as they would take more
 * than `maxChars` characters (so a value that cannot fit costs no more than the budget).
 */
export function secretForms(value: string, maxChars = Infinity): string[] | null {
  if (value === '') return [];
  const all = new Set<string>();
  let chars = 0;
  /** False once the forms take more than maxChars: the caller gives up at once. */
  const add = (f: string): boolean => {
    if (all.has(f) || (f !== value && f.length < MIN_FORM_CHARS)) return true;
    all.add(f);
    chars += f.length;
    return chars <= maxChars;
  };
  const bytes = toBytes(value);
  // A server that reads the request's header bytes as Latin-1 (Node, WSGI) and writes them
  // back as UTF-8 turns each byte of a non-ASCII value into one character.
  const latin1 = Buffer.from(bytes).toString('latin1');
  for (const f of [value, value.toLowerCase(), value.toUpperCase(), latin1]) if (!add(f)) return null;
  for (const b of latin1 === value ? [bytes] : [bytes, toBytes(latin1)]) {
    for (const { keep, plus } of ENCODERS)
      for (const lower of [false, true]) if (!add(percent(b, keep, plus, lower))) return null;
  }
  for (const f of [...base64Cores(bytes), ...html(value)]) if (!add(f)) return null;
  const decoded = base64Decoded(value);
  if (decoded !== null && !add(decoded)) return null;
  // Two levels of JSON: an API that echoes a JSON body as a string (`"data": "{\"k\": ...}"`).
  for (const f of [...all]) {
    for (const once of json(f)) {
      if (!add(once)) return null;
      for (const twice of json(once)) if (!add(twice)) return null;
    }
  }
  return [...all];
}
