/**
 * json_encode of plain data by V8's JSON.stringify, for the data where its text is PHP's but for
 * `/` and the characters past ASCII, which one loop over its text then escapes as PHP does (D211,
 * D375).
 *
 * The encoder's own walk (encode.ts) builds the answer as a rope of a few thousand short strings
 * (a key, a value, each `\uXXXX`), and flattening that rope when the output is written costs
 * about as much as the walk: the JSON page's answer ~80 µs to build and ~70 more to flatten in
 * plain Node. JSON.stringify makes one flat string, and the escapes' loop pieces only where an
 * escape goes.
 */
import * as F from './flags.js';
import { prototypeLendsKeys } from '../../value/prototype-keys.js';

/** The flags this path writes as PHP does; any other flag takes the encoder's walk. */
const FAST_FLAGS =
  F.JSON_UNESCAPED_SLASHES |
  F.JSON_UNESCAPED_UNICODE |
  F.JSON_UNESCAPED_LINE_TERMINATORS |
  F.JSON_PARTIAL_OUTPUT_ON_ERROR |
  F.JSON_INVALID_UTF8_IGNORE |
  F.JSON_INVALID_UTF8_SUBSTITUTE;

/**
 * A lone surrogate (not UTF-8, an error or a substitute in PHP) as JSON.stringify writes it:
 * `\udXXX`. An input backslash before "ud800" (`\\ud800` in the text) matches too and only
 * sends that answer the long way. Tested only where `includes('\\ud')` finds the prefix: a
 * substring search is ~3 µs over the JSON page's answer, the expression ~9-10.
 */
const LONE_SURROGATE = /\\ud[89a-f]/;

/** With UNESCAPED_UNICODE: the line terminators PHP still escapes. */
const LINE_TERMINATORS = /[\u2028\u2029]+/g;

/**
 * Plain data whose JSON.stringify text is PHP's once `/` and non-ASCII are escaped: strings,
 * booleans, null, safe integers and fractions that both print alike, JavaScript arrays of these (no
 * holes) and non-empty plain objects whose keys do not start with a digit or `-` (an integer key
 * may make PHP's array a list or reorder it), nested no deeper than PHP allows.
 */
function stringifiable(x: unknown, depth: number, maxDepth: number): boolean {
  switch (typeof x) {
    case 'string':
    case 'boolean':
      return true;
    case 'number': {
      if (Number.isSafeInteger(x)) return true;
      // An integral number past 2^53 is an exact int64 to fromJS (2^55 is ...968, not the
      // shortest digits ...970); a fraction prints alike where php_gcvt uses fixed notation.
      if (Number.isInteger(x)) return false;
      const abs = Math.abs(x);
      return abs >= 1e-4 && abs < 1e17;
    }
    case 'object': {
      if (x === null) return true;
      if (depth >= maxDepth) return false;
      if (Array.isArray(x)) {
        for (let i = 0; i < x.length; i++) if (!stringifiable(x[i], depth + 1, maxDepth)) return false;
        return true;
      }
      // Only the plain objects fromJS reads in place; a Date, PhpArray or class instance is converted.
      if (Object.getPrototypeOf(x) !== Object.prototype || !Object.isExtensible(x)) return false;
      // `for...in` lists the keys `Object.keys` does, in its order, without making an array of
      // them, as long as Object.prototype lends none (`stringifyPlain` checks it first).
      const o = x as Record<string, unknown>;
      let empty = true;
      for (const k in o) {
        empty = false;
        const c = k.charCodeAt(0);
        if ((c >= 48 && c <= 57) || c === 45 || !stringifiable(o[k], depth + 1, maxDepth)) return false;
      }
      return !empty;
    }
    default:
      // undefined, bigint, functions, symbols: the encoder's walk.
      return false;
  }
}

function escapeRun(run: string): string {
  let out = '';
  for (let i = 0; i < run.length; i++) out += unicodeEscape(run.charCodeAt(i));
  return out;
}

/**
 * JSON text with every unit past ASCII written as `\\uXXXX` and, with `slashes`, `/` as `\\/`:
 * both appear only inside its strings. One loop copying the runs between them as slices: the two
 * native passes it replaces (`replaceAll` for `/`, then a regular expression calling back per
 * run of units past ASCII) cost ~1.4x as much over the constructs' rows (bench/README.md, D375).
 */
function escapeText(json: string, slashes: boolean): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c < 0x80) {
      if (c !== 0x2f || !slashes) continue;
      out += json.slice(last, i) + '\\/';
    } else out += json.slice(last, i) + unicodeEscape(c);
    last = i + 1;
  }
  return last === 0 ? json : out + json.slice(last);
}

/** PHP's json_encode text of plain data, or null when this path does not apply (the walk does). */
export function stringifyPlain(rec: Readonly<Record<string, unknown>>, flags: number, maxDepth: number): string | null {
  if ((flags & ~FAST_FLAGS) !== 0 || prototypeLendsKeys() || !stringifiable(rec, 0, maxDepth)) return null;
  let json = JSON.stringify(rec);
  if (json.includes('\\ud') && LONE_SURROGATE.test(json)) return null;
  const slashes = !(flags & F.JSON_UNESCAPED_SLASHES);
  if (!(flags & F.JSON_UNESCAPED_UNICODE)) return escapeText(json, slashes);
  if (slashes) json = json.replaceAll('/', '\\/');
  if (!(flags & F.JSON_UNESCAPED_LINE_TERMINATORS)) return json.replace(LINE_TERMINATORS, escapeRun);
  return json;
}

/**
 * `\\uXXXX` of a BMP unit, made once per unit and kept in a page of 256 per high byte: Japanese
 * text repeats a few hundred characters, and two array reads cost less than the Map they replace.
 * Filled one entry at a time; a render cut in the middle leaves only whole entries (D140). At most
 * MAX_KEPT_ESCAPES are kept (~24 bytes each): past it the pages start again.
 */
let escapePages = newPages();
let keptEscapes = 0;
const MAX_KEPT_ESCAPES = 4096;

function newPages(): ((string | undefined)[] | undefined)[] {
  return new Array<(string | undefined)[] | undefined>(256);
}

export function unicodeEscape(c: number): string {
  const page = escapePages[c >> 8];
  const e = page?.[c & 0xff];
  return e === undefined ? keepEscape(c) : e;
}

function keepEscape(c: number): string {
  const e = '\\u' + HEX2[c >> 8]! + HEX2[c & 0xff]!;
  if (keptEscapes >= MAX_KEPT_ESCAPES) {
    escapePages = newPages();
    keptEscapes = 0;
  }
  (escapePages[c >> 8] ??= new Array<string | undefined>(256))[c & 0xff] = e;
  keptEscapes++;
  return e;
}

/** Two lower-case hex digits per byte value. */
const HEX2 = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
