/**
 * PHP 8.2's json_encode (ext/json/json_encoder.c): escaping rules and flags, float printing
 * with serialize_precision=-1, lists against objects, depth and partial output.
 */
import { PhpArray, PhpFloat, PhpObject, type Key, type Value, isInt, fromJS } from '../../value/value.js';
import { normalizeKey } from '../../value/php-array.js';
import { isNumericStr } from '../../value/convert.js';
import { toBytes } from '../../value/bytes.js';
import { jsonFloat } from './float.js';
import { nextUtf8 } from './utf8-scan.js';
import { stringifyPlain, unicodeEscape } from './stringify-plain.js';
import * as F from './flags.js';
import { int64OfDecimal } from '../../value/int64.js';

/** json_last_error() codes that the encoder can raise. */
const EncodeError = { None: 0, Depth: 1, Utf8: 5, InfOrNan: 7 } as const;
type EncodeError = (typeof EncodeError)[keyof typeof EncodeError];

class Encoder {
  error: EncodeError = EncodeError.None;
  private depth = 0;
  /** Plain data (lazy records, JavaScript arrays) is walked as it is: no flag changes its layout. */
  private readonly plain: boolean;
  private readonly ascii: readonly (string | undefined)[];
  /**
   * Keys escaped once per call, with the comma and colon around them (`,"key":`): a list of
   * records repeats the same few. The first key of an object drops the comma.
   */
  private readonly keys = new Map<string, string>();
  constructor(
    private readonly flags: number,
    private readonly maxDepth: number,
  ) {
    this.plain = (flags & (F.JSON_FORCE_OBJECT | F.JSON_PRETTY_PRINT)) === 0;
    this.ascii = asciiEscapes(flags);
  }

  private has(flag: number): boolean {
    return (this.flags & flag) !== 0;
  }

  private fail(code: EncodeError): string {
    this.error = code;
    return 'null';
  }

  value(v: Value): string {
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (isInt(v)) return String(v);
    if (typeof v === 'number' || v instanceof PhpFloat) return this.double(typeof v === 'number' ? v : v.value);
    if (typeof v === 'string') return this.string(v, this.flags);
    if (v instanceof PhpArray) {
      const rec = this.plain ? v.recordSource() : null;
      if (rec) return this.plainObject(rec);
      const force = this.has(F.JSON_FORCE_OBJECT);
      // A packed list is walked as it is stored: no [key, value] pair per element.
      const packed = force ? null : v.packedValues();
      if (packed) return this.list(packed);
      const entries = v.entries();
      return this.container(!force && isSequential(entries), entries);
    }
    if (v instanceof PhpObject) return this.container(false, Array.from(v.props.entries()));
    return 'null';
  }

  /**
   * A value of plain data inside a lazy record, encoded as `fromJS` would have converted it but
   * without converting it: a record of the page's variables is settled into a Map per object and
   * its values converted when walked as a PhpArray, which was most of json_encode's time.
   */
  private plainValue(x: unknown): string {
    switch (typeof x) {
      case 'string':
        return this.string(x, this.flags);
      case 'number':
        return Number.isSafeInteger(x) ? String(x) : this.value(fromJS(x));
      case 'boolean':
        return x ? 'true' : 'false';
      case 'object':
        if (x === null) return 'null';
        if (Array.isArray(x)) return this.plainList(x);
        if (x instanceof PhpArray || x instanceof PhpObject || x instanceof PhpFloat || x instanceof Date)
          return this.value(fromJS(x));
        // A record nested in a record, or an object fromJS would copy eagerly: the same keys and values.
        return this.plainObject(x as Record<string, unknown>);
      default:
        // bigint as fromJS makes it; undefined, functions and symbols are null there.
        return this.value(fromJS(x));
    }
  }

  /** A JavaScript array: fromJS makes it a packed list. */
  private plainList(values: readonly unknown[]): string {
    this.depth++;
    let out = '[';
    for (let i = 0; i < values.length; i++) out += (i === 0 ? '' : ',') + this.plainValue(values[i]);
    out += ']';
    if (this.depth > this.maxDepth && !this.has(F.JSON_PARTIAL_OUTPUT_ON_ERROR)) this.error = EncodeError.Depth;
    this.depth--;
    return out;
  }

  /**
   * A plain object's own keys in order, as `fromObject` reads them. One whose keys include an
   * integer key ("0", "-1") is converted and encoded as the PhpArray it makes (it may be a list).
   * An empty one is an empty packed array: `[]`.
   */
  private plainObject(o: Readonly<Record<string, unknown>>): string {
    const keys = Object.keys(o);
    for (let i = 0; i < keys.length; i++) {
      const c = keys[i]!.charCodeAt(0);
      if (((c >= 48 && c <= 57) || c === 45) && typeof normalizeKey(keys[i]) !== 'string')
        return this.value(PhpArray.fromObject(o as Record<string, unknown>, convertPlain));
    }
    if (keys.length === 0) return this.plainList(keys);
    this.depth++;
    let out = '{';
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      let key = this.keys.get(k);
      if (key === undefined) this.keys.set(k, (key = ',' + this.escape(k, this.flags) + ':'));
      out += (i === 0 ? key.slice(1) : key) + this.plainValue(o[k]);
    }
    out += '}';
    if (this.depth > this.maxDepth && !this.has(F.JSON_PARTIAL_OUTPUT_ON_ERROR)) this.error = EncodeError.Depth;
    this.depth--;
    return out;
  }

  private double(d: number): string {
    if (!Number.isFinite(d)) {
      this.error = EncodeError.InfOrNan;
      return '0';
    }
    return jsonFloat(d, this.has(F.JSON_PRESERVE_ZERO_FRACTION));
  }

  /** A packed list: `container(true, ...)` without the keys. */
  private list(values: readonly Value[]): string {
    if (values.length === 0 || this.has(F.JSON_PRETTY_PRINT))
      return this.container(
        true,
        values.map((x, i) => [i, x]),
      );
    this.depth++;
    let out = '[' + this.value(values[0]);
    for (let i = 1; i < values.length; i++) out += ',' + this.value(values[i]);
    out += ']';
    if (this.depth > this.maxDepth && !this.has(F.JSON_PARTIAL_OUTPUT_ON_ERROR)) this.error = EncodeError.Depth;
    this.depth--;
    return out;
  }

  private container(list: boolean, entries: [Key, Value][]): string {
    const pretty = this.has(F.JSON_PRETTY_PRINT);
    this.depth++;
    let out = list ? '[' : '{';
    if (entries.length > 0) {
      const indent = pretty ? '\n' + '    '.repeat(this.depth) : '';
      let first = true;
      for (const [k, x] of entries) {
        out += first ? indent : ',' + indent;
        first = false;
        if (!list) {
          const key = typeof k !== 'string' ? `"${k}"` : this.string(k, this.flags & ~F.JSON_NUMERIC_CHECK);
          out += key + (pretty ? ': ' : ':');
        }
        out += this.value(x);
      }
      if (pretty) out += '\n' + '    '.repeat(this.depth - 1);
    }
    out += list ? ']' : '}';
    // PHP checks the depth on the way out, and PARTIAL_OUTPUT_ON_ERROR silences it.
    if (this.depth > this.maxDepth && !this.has(F.JSON_PARTIAL_OUTPUT_ON_ERROR)) this.error = EncodeError.Depth;
    this.depth--;
    return out;
  }

  private string(s: string, flags: number): string {
    if (s.length === 0) return '""';
    if (flags & F.JSON_NUMERIC_CHECK && isNumericStr(s)) {
      const t = s.trim();
      if (/^[+-]?[0-9]+$/.test(t)) {
        const big = int64OfDecimal(t);
        if (big !== null) return big.toString();
      }
      const d = Number(t);
      if (Number.isFinite(d)) return jsonFloat(d, (flags & F.JSON_PRESERVE_ZERO_FRACTION) !== 0);
    }
    return this.escape(s, flags);
  }

  private escape(s: string, flags: number): string {
    const quoted = escapeWellFormed(s, flags, flags === this.flags ? this.ascii : asciiEscapes(flags));
    if (quoted !== null) return quoted;
    const b = toBytes(s);
    let out = '"';
    for (let pos = 0; pos < b.length;) {
      const c = b[pos];
      if (c >= 0x80) {
        const [cp, n] = nextUtf8(b, pos);
        pos += n;
        if (cp < 0) {
          if (flags & F.JSON_INVALID_UTF8_IGNORE) continue;
          if (flags & F.JSON_INVALID_UTF8_SUBSTITUTE) {
            out += flags & F.JSON_UNESCAPED_UNICODE ? '\ufffd' : '\\ufffd';
            continue;
          }
          return this.fail(EncodeError.Utf8);
        }
        const lineTerminator = cp === 0x2028 || cp === 0x2029;
        if (flags & F.JSON_UNESCAPED_UNICODE && (!lineTerminator || flags & F.JSON_UNESCAPED_LINE_TERMINATORS)) {
          out += String.fromCodePoint(cp);
        } else if (cp >= 0x10000) {
          const u = cp - 0x10000;
          out += '\\u' + hex4(0xd800 | (u >> 10)) + '\\u' + hex4(0xdc00 | (u & 0x3ff));
        } else {
          out += '\\u' + hex4(cp);
        }
        continue;
      }
      pos++;
      out += escapeAscii(c, flags);
    }
    return out + '"';
  }
}

/**
 * A well-formed string (no stray bytes) needs no UTF-8 pass: its UTF-16 units are what PHP's
 * \u escapes spell (a character outside the BMP is the same surrogate pair), so the units that
 * need an escape are replaced and the runs between them copied as slices. A byte at a time it
 * was ~8 µs for 300 characters inside an isolate. Null for a string with a lone surrogate (a
 * stray byte from outside), which takes the byte-wise path; checked here rather than by
 * `isWellFormed()`, a second pass over every string.
 */
function escapeWellFormed(s: string, flags: number, ascii: readonly (string | undefined)[]): string | null {
  const unicode = (flags & F.JSON_UNESCAPED_UNICODE) !== 0;
  const lineTerminators = (flags & F.JSON_UNESCAPED_LINE_TERMINATORS) !== 0;
  let out = '"';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      const e = ascii[c];
      if (e === undefined) continue;
      out += last === i ? e : s.slice(last, i) + e;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A pair is written as it is or as two \u escapes, one per unit; a lone surrogate is not UTF-8.
      const d = s.charCodeAt(i + 1);
      if (c > 0xdbff || !(d >= 0xdc00 && d <= 0xdfff)) return null;
      i++;
      if (unicode) continue;
      out += s.slice(last, i - 1) + '\\u' + hex4(c) + '\\u' + hex4(d);
    } else if (!unicode || ((c === 0x2028 || c === 0x2029) && !lineTerminators)) {
      out += last === i ? unicodeEscape(c) : s.slice(last, i) + unicodeEscape(c);
    } else continue;
    last = i + 1;
  }
  return out + (last === 0 ? s : s.slice(last)) + '"';
}

/** The flags that change how an ASCII character is written. */
const ASCII_FLAGS = F.JSON_HEX_QUOT | F.JSON_UNESCAPED_SLASHES | F.JSON_HEX_TAG | F.JSON_HEX_AMP | F.JSON_HEX_APOS;
const asciiTables = new Map<number, readonly (string | undefined)[]>();

/** Per ASCII code, its escape under these flags, undefined for a character written as it is. */
function asciiEscapes(flags: number): readonly (string | undefined)[] {
  const key = flags & ASCII_FLAGS;
  let table = asciiTables.get(key);
  if (table === undefined) {
    const t: (string | undefined)[] = [];
    for (let c = 0; c < 0x80; c++) {
      const e = escapeAscii(c, key);
      t.push(e.length > 1 ? e : undefined);
    }
    table = t;
    // One set of a finished table: a render cut in the middle leaves no half-made entry (D140).
    asciiTables.set(key, table);
  }
  return table;
}

function escapeAscii(c: number, flags: number): string {
  switch (c) {
    case 0x22:
      return flags & F.JSON_HEX_QUOT ? '\\u0022' : '\\"';
    case 0x5c:
      return '\\\\';
    case 0x2f:
      return flags & F.JSON_UNESCAPED_SLASHES ? '/' : '\\/';
    case 0x08:
      return '\\b';
    case 0x0c:
      return '\\f';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x09:
      return '\\t';
    case 0x3c:
      return flags & F.JSON_HEX_TAG ? '\\u003C' : '<';
    case 0x3e:
      return flags & F.JSON_HEX_TAG ? '\\u003E' : '>';
    case 0x26:
      return flags & F.JSON_HEX_AMP ? '\\u0026' : '&';
    case 0x27:
      return flags & F.JSON_HEX_APOS ? '\\u0027' : "'";
  }
  return c < 0x20 ? '\\u00' + c.toString(16).padStart(2, '0') : String.fromCharCode(c);
}

/** Two lower-case hex digits per byte value. */
const HEX2 = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hex4(n: number): string {
  return HEX2[n >> 8]! + HEX2[n & 0xff]!;
}

const convertPlain = (x: unknown): Value => fromJS(x);

/** Keys exactly 0..n-1 in order (a map-stored array can still be a list). */
function isSequential(entries: readonly [Key, Value][]): boolean {
  for (let i = 0; i < entries.length; i++) if (entries[i]![0] !== i) return false;
  return true;
}

export interface EncodeResult {
  json: string | false;
  error: EncodeError;
}

/** json_encode with the error code; `json` is false on error unless PARTIAL_OUTPUT_ON_ERROR. */
export function jsonEncodeEx(v: Value, flags = 0, depth = F.JSON_DEFAULT_DEPTH): EncodeResult {
  const rec = v instanceof PhpArray ? v.recordSource() : null;
  if (rec) {
    const json = stringifyPlain(rec, flags, depth);
    if (json !== null) return { json, error: EncodeError.None };
  }
  const e = new Encoder(flags, depth);
  const json = e.value(v);
  if (e.error !== EncodeError.None && !(flags & F.JSON_PARTIAL_OUTPUT_ON_ERROR)) return { json: false, error: e.error };
  return { json, error: e.error };
}

export function jsonEncode(v: Value, flags = 0, depth = F.JSON_DEFAULT_DEPTH): string | false {
  return jsonEncodeEx(v, flags, depth).json;
}
