/**
 * htmlspecialchars, htmlentities, html_entity_decode and htmlspecialchars_decode as PHP 8.2
 * has them, for the UTF-8 and ISO-8859-1 charsets (the only ones a template meets; other
 * charsets PHP knows throw a clear PhpTypeError, unknown names fall back to UTF-8 as PHP does).
 */
import { PhpTypeError } from '../../value/convert.js';
import { fromBinary, toBinary } from '../../value/bytes.js';
import { replaceEach } from '../../value/replace-each.js';
import { HTML401_ENTITIES } from './html-entity-table.js';
import { HTML5_ENTITIES } from './html5-entity-table.js';
import { nextUtf8 } from './utf8-scan.js';
import { lazy } from '../../value/lazy.js';

/** The single-quote bit of the quote flags on its own (ENT_QUOTES is it and ENT_COMPAT). */
const ENT_HTML_QUOTE_SINGLE = 1;
const ENT_COMPAT = 2;
export const ENT_QUOTES = 3;
export const ENT_NOQUOTES = 0;
const ENT_IGNORE = 4;
const ENT_SUBSTITUTE = 8;
const DOCTYPE_MASK = 48; // ENT_HTML401 0, ENT_XML1 16, ENT_XHTML 32, ENT_HTML5 48
/** PHP 8.1+ default flags of the html functions. */
export const ENT_DEFAULT = ENT_QUOTES | ENT_SUBSTITUTE;

/** HTML 4.01's named entities, both ways. */
const entities = lazy(() => {
  const byCode = new Map<number, string>();
  const byName = new Map<string, number>();
  for (const pair of HTML401_ENTITIES.split(' ')) {
    const [hex, name] = pair.split(':');
    byCode.set(parseInt(hex, 16), name);
    byName.set(name, parseInt(hex, 16));
  }
  byName.set('quot', 0x22).set('amp', 0x26).set('lt', 0x3c).set('gt', 0x3e);
  return { byCode, byName };
});

export type Charset = 'utf-8' | 'iso-8859-1';

const CHARSETS: Record<string, Charset | 'other'> = {
  'utf-8': 'utf-8',
  'iso-8859-1': 'iso-8859-1',
  'iso8859-1': 'iso-8859-1',
};
for (const other of [
  'iso-8859-15',
  'iso8859-15',
  'cp1252',
  'windows-1252',
  '1252',
  'big5',
  '950',
  'gb2312',
  '936',
  'big5-hkscs',
  'shift_jis',
  'sjis',
  '932',
  'sjis-win',
  'cp932',
  'eucjp',
  'euc-jp',
  'eucjp-win',
  'koi8-r',
  'koi8-ru',
  'koi8r',
  'cp1251',
  'windows-1251',
  'win-1251',
  'iso8859-5',
  'iso-8859-5',
  'cp866',
  '866',
  'ibm866',
  'macroman',
]) {
  CHARSETS[other] = 'other';
}

/**
 * The charset an html function works in. `warn` receives PHP's warning for a name PHP does
 * not know (it then assumes UTF-8).
 */
export function htmlCharset(fn: string, name: string, warn?: (m: string) => void): Charset {
  if (name === '') return 'utf-8';
  const key = name.toLowerCase();
  // An own key only: `constructor` is a name of Object.prototype, not a charset.
  const cs = Object.hasOwn(CHARSETS, key) ? CHARSETS[key] : undefined;
  if (cs === 'other')
    throw new PhpTypeError(`${fn}(): charset "${name}" is not supported here (only UTF-8 and ISO-8859-1)`);
  if (cs) return cs;
  warn?.(`${fn}(): Charset "${name}" is not supported, assuming UTF-8`);
  return 'utf-8';
}

function quoteEntities(flags: number): { dq: boolean; sq: string | null } {
  const sq = (flags & ENT_HTML_QUOTE_SINGLE) !== 0 ? ((flags & DOCTYPE_MASK) === 0 ? '&#039;' : '&apos;') : null;
  return { dq: (flags & ENT_COMPAT) !== 0, sq };
}

/**
 * Whether `bin` has a valid entity starting at `i` (the `&`), for double_encode=false: a named
 * one must be a name of the flags' document type, as html_entity_decode reads them (D329).
 */
function entityLengthAt(bin: string, i: number, doctype: number): number {
  const m = /^&(?:#(?:[xX][0-9a-fA-F]+|[0-9]+)|[A-Za-z0-9]+);/.exec(bin.slice(i, i + 40));
  if (!m) return 0;
  const body = m[0].slice(1, -1);
  if (body[0] === '#') {
    const hex = body[1] === 'x' || body[1] === 'X';
    const n = parseInt(hex ? body.slice(2) : body.slice(1), hex ? 16 : 10);
    return n <= 0x10ffff ? m[0].length : 0;
  }
  return namedEntity(body, doctype, true) !== undefined ? m[0].length : 0;
}

function encode(s: string, flags: number, charset: Charset, doubleEncode: boolean, all: boolean): string {
  const { dq, sq } = quoteEntities(flags);
  const byCode = all ? entities().byCode : null;
  const bin = toBinary(s);
  let out = '';
  for (let i = 0; i < bin.length;) {
    let cp: number;
    let len = 1;
    if (charset === 'utf-8') {
      ({ cp, len } = nextUtf8(bin, i));
      if (cp < 0) {
        if (flags & ENT_IGNORE) {
          i += len;
          continue;
        }
        if (!(flags & ENT_SUBSTITUTE)) return '';
        out += '\xef\xbf\xbd';
        i += len;
        continue;
      }
    } else cp = bin.charCodeAt(i);
    const raw = bin.slice(i, i + len);
    i += len;
    if (cp === 0x26) {
      const elen = doubleEncode ? 0 : entityLengthAt(bin, i - 1, flags & DOCTYPE_MASK);
      if (elen) {
        out += bin.slice(i - 1, i - 1 + elen);
        i += elen - 1;
      } else out += '&amp;';
    } else if (cp === 0x3c) out += '&lt;';
    else if (cp === 0x3e) out += '&gt;';
    else if (cp === 0x22 && dq) out += '&quot;';
    else if (cp === 0x27 && sq) out += sq;
    else if (byCode !== null && cp >= 0xa0 && byCode.has(cp)) out += `&${byCode.get(cp)};`;
    else out += raw;
  }
  return fromBinary(out);
}

export function htmlspecialchars(
  s: string,
  flags = ENT_DEFAULT,
  charset: Charset = 'utf-8',
  doubleEncode = true,
): string {
  // Well-formed UTF-8 text (no stray bytes, see bytes.ts) needs no decoding: only five characters change.
  if (charset === 'utf-8' && doubleEncode && s.isWellFormed()) return escapeWellFormed(s, flags);
  return encode(s, flags, charset, doubleEncode, false);
}

/** Replacement text by character code, per flags (only the quote entities depend on them). */
const tables = new Map<number, string[]>();

/**
 * The hot path of escape:'html': well-formed text needs no decoding, only the five characters
 * replaced. Each of them is found with `indexOf`, which runs natively over the text, and the
 * nearest is replaced next; text with none of them is returned as it is. A JavaScript loop of
 * `charCodeAt` was ~2x slower on text that is the result of a concatenation (truncate's and
 * join's are): it reads the string through its flattened rope one call at a time, where
 * `indexOf` flattens it once and then searches the flat text. Each character's search only moves
 * forward, so a text is read at most five times whatever it holds.
 */
function escapeWellFormed(s: string, flags: number): string {
  const table = tableFor(flags);
  const n = s.length;
  // Positions of the next &, <, >, " and ' (n when there is none); quotes that stay as they are
  // under these flags are not searched for.
  let amp = s.indexOf('&');
  let lt = s.indexOf('<');
  let gt = s.indexOf('>');
  let dq = table[34] === '"' ? -1 : s.indexOf('"');
  let sq = table[39] === "'" ? -1 : s.indexOf("'");
  if (amp < 0 && lt < 0 && gt < 0 && dq < 0 && sq < 0) return s;
  if (amp < 0) amp = n;
  if (lt < 0) lt = n;
  if (gt < 0) gt = n;
  if (dq < 0) dq = n;
  if (sq < 0) sq = n;
  let out = '';
  let last = 0;
  for (;;) {
    const i = Math.min(amp, lt, gt, dq, sq);
    if (i === n) break;
    const c = s.charCodeAt(i);
    out += s.slice(last, i) + table[c];
    last = i + 1;
    if (c === 38) amp = nextOf(s, '&', last);
    else if (c === 60) lt = nextOf(s, '<', last);
    else if (c === 62) gt = nextOf(s, '>', last);
    else if (c === 34) dq = nextOf(s, '"', last);
    else sq = nextOf(s, "'", last);
  }
  return out + s.slice(last);
}

function nextOf(s: string, ch: string, from: number): number {
  const i = s.indexOf(ch, from);
  return i < 0 ? s.length : i;
}

function tableFor(flags: number): string[] {
  let table = tables.get(flags);
  if (!table) {
    const { dq, sq } = quoteEntities(flags);
    table = [];
    table[38] = '&amp;';
    table[60] = '&lt;';
    table[62] = '&gt;';
    table[34] = dq ? '&quot;' : '"';
    table[39] = sq ?? "'";
    // flags come from templates: keep the cache small whatever they pass
    if (tables.size < 32) tables.set(flags, table);
  }
  return table;
}

export function htmlentities(s: string, flags = ENT_DEFAULT, charset: Charset = 'utf-8', doubleEncode = true): string {
  if (charset === 'utf-8' && doubleEncode && s.isWellFormed()) return entitiesWellFormed(s, flags);
  return encode(s, flags, charset, doubleEncode, true);
}

/**
 * htmlentities of well-formed text: the five characters and those with a named entity (all in
 * the BMP, so one UTF-16 unit each) are replaced, the rest copied as slices. `encode`, a
 * character at a time through the bytes, was ~9 µs for 300 characters inside an isolate.
 */
function entitiesWellFormed(s: string, flags: number): string {
  const table = tableFor(flags);
  const byCode = entities().byCode;
  let out = '';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let replacement: string | undefined;
    if (c <= 62) {
      if (c === 38 || c === 60 || c === 62 || c === 34 || c === 39) replacement = table[c];
    } else if (c >= 0xa0) {
      const name = byCode.get(c);
      if (name !== undefined) replacement = `&${name};`;
    }
    if (replacement !== undefined && replacement.length > 1) {
      out += s.slice(last, i) + replacement;
      last = i + 1;
    }
  }
  return last === 0 ? s : out + s.slice(last);
}

const ENT_XML1 = 16;
const ENT_XHTML = 32;
const ENT_HTML5 = 48;

/**
 * Code points a numeric entity may decode to in the flags' document type (PHP's
 * unicode_cp_is_allowed, and HTML5's refusal of &#13;): HTML 4.01 refuses the C0 and C1
 * controls but tab, line feed and carriage return; HTML5 also the noncharacters and &#13; but
 * allows &#12;; XML 1.0 and XHTML allow the C1 controls and refuse only U+FFFE and U+FFFF (D329).
 */
function decodableCodePoint(cp: number, doctype: number): boolean {
  if (doctype === ENT_XML1 || doctype === ENT_XHTML)
    return (
      cp === 0x09 ||
      cp === 0x0a ||
      cp === 0x0d ||
      (cp >= 0x20 && cp <= 0xd7ff) ||
      (cp >= 0xe000 && cp <= 0x10ffff && cp !== 0xfffe && cp !== 0xffff)
    );
  if (doctype === ENT_HTML5)
    return (
      cp === 0x09 ||
      cp === 0x0a ||
      cp === 0x0c ||
      (cp >= 0x20 && cp <= 0x7e) ||
      (cp >= 0xa0 && cp <= 0xd7ff) ||
      (cp >= 0xe000 && cp <= 0x10ffff && (cp & 0xffff) < 0xfffe && (cp < 0xfdd0 || cp > 0xfdef))
    );
  return (
    cp === 0x09 ||
    cp === 0x0a ||
    cp === 0x0d ||
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0x10ffff)
  );
}

/** HTML5's named references, name to code points. */
const html5Entities = lazy(() => {
  const byName = new Map<string, number[]>();
  for (const pair of HTML5_ENTITIES.split(' ')) {
    const [name, hex] = pair.split(':');
    byName.set(
      name,
      hex.split(',').map((h) => parseInt(h, 16)),
    );
  }
  return byName;
});

/**
 * The code points of a named entity in the flags' document type (PHP's unescape_inverse_map):
 * XML 1.0 knows the five of XML, XHTML HTML 4.01's and &apos;, HTML 4.01 no &apos;, HTML5
 * its own 2,125 names. htmlspecialchars_decode (`all` false) reads the five only, &apos; not
 * in HTML 4.01 (D329).
 */
function namedEntity(name: string, doctype: number, all: boolean): number[] | undefined {
  if (all && doctype === ENT_HTML5) return html5Entities().get(name);
  if (name === 'apos') return doctype === 0 ? undefined : [0x27];
  const cp = entities().byName.get(name);
  if (cp === undefined || ((!all || doctype === ENT_XML1) && !SPECIAL_CODES.has(cp))) return undefined;
  return [cp];
}

const SPECIAL_CODES = new Set([0x22, 0x26, 0x27, 0x3c, 0x3e]);

function decode(s: string, flags: number, charset: Charset, all: boolean): string {
  if (!s.includes('&')) return s;
  const { dq } = quoteEntities(flags);
  const sqOk = (flags & ENT_HTML_QUOTE_SINGLE) !== 0;
  const doctype = flags & DOCTYPE_MASK;
  // Entities are ASCII, so matching on the UTF-16 text is the same as on bytes.
  return replaceEach(
    s,
    /&(#[xX]?)?([0-9A-Za-z]+);/g,
    (whole, num: string | undefined, body: string) => {
      let cp: number;
      let second: number | undefined;
      if (num) {
        const hex = num.length === 2;
        if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(body)) return whole;
        cp = parseInt(body, hex ? 16 : 10);
        if (cp > 0x10ffff || !decodableCodePoint(cp, doctype)) return whole;
        if (!all && !SPECIAL_CODES.has(cp)) return whole;
      } else {
        const named = namedEntity(body, doctype, all);
        if (named === undefined) return whole;
        [cp, second] = named;
      }
      if ((cp === 0x27 && !sqOk) || (cp === 0x22 && !dq)) return whole;
      if (charset === 'iso-8859-1')
        return cp <= 0xff && second === undefined ? fromBinary(String.fromCharCode(cp)) : whole;
      return second === undefined ? String.fromCodePoint(cp) : String.fromCodePoint(cp, second);
    },
    'html_entity_decode',
  );
}

export function htmlEntityDecode(s: string, flags = ENT_DEFAULT, charset: Charset = 'utf-8'): string {
  return decode(s, flags, charset, true);
}

export function htmlspecialcharsDecode(s: string, flags = ENT_DEFAULT): string {
  return decode(s, flags, 'utf-8', false);
}
