/**
 * The one JSON→PHP parser (D196): PHP 8.2's json_decode, order-preserving, building PhpArray
 * (assoc) or PhpObject values. json_decode (the modifier and the host plugins) and the render's
 * variables given as JSON text (src/runtime/vars.ts) both read JSON through `parseJson`; it runs
 * on the host and in the isolate runtime bundle alike (it imports only value/).
 *
 * What follows PHP, checked against live PHP's answers (test/php/json/decode.test.ts):
 * - numbers: an integer is an int while it fits 64 bits (a bigint past 2^53, exact), a float
 *   beyond (or its digits with JSON_BIGINT_AS_STRING); a fraction or an exponent is a float
 *   (`1e400` is INF, `-0.0` is -0.0, `-0` is the int 0);
 * - keys: the last of duplicate keys wins in the first one's place; with arrays "1" is the int key
 *   1; with objects "" is a property of its own and a name that starts with NUL is an error;
 * - strings: `\ud800` alone is an error (there is no UTF-8 for it), and so is invalid UTF-8
 *   (here a lone surrogate, see value/bytes.ts) unless JSON_INVALID_UTF8_IGNORE/SUBSTITUTE;
 * - depth: `depth` 1 allows scalars only, each array or object takes one level more;
 * - errors: PHP's json_last_error() code, found where PHP's scanner and parser find it: the first
 *   bad token wins, and a token the scanner refuses (a control character, a bad string) is that
 *   error, not a syntax error.
 */
import { PhpArray, PhpObject, type Value, float } from '../../value/value.js';
import * as F from './flags.js';
import { intOfDecimal } from '../../value/int64.js';

/** PHP's JSON_ERROR_* codes that decoding can give (json_last_error()). */
const JSON_ERROR_DEPTH = 1;
const JSON_ERROR_CTRL_CHAR = 3;
const JSON_ERROR_SYNTAX = 4;
const JSON_ERROR_UTF8 = 5;
const JSON_ERROR_INVALID_PROPERTY_NAME = 9;
const JSON_ERROR_UTF16 = 10;

export type JsonDecodeError =
  | typeof JSON_ERROR_DEPTH
  | typeof JSON_ERROR_CTRL_CHAR
  | typeof JSON_ERROR_SYNTAX
  | typeof JSON_ERROR_UTF8
  | typeof JSON_ERROR_INVALID_PROPERTY_NAME
  | typeof JSON_ERROR_UTF16;

/** json_last_error_msg() for each code. */
const MESSAGES: Record<JsonDecodeError, string> = {
  [JSON_ERROR_DEPTH]: 'Maximum stack depth exceeded',
  [JSON_ERROR_CTRL_CHAR]: 'Control character error, possibly incorrectly encoded',
  [JSON_ERROR_SYNTAX]: 'Syntax error',
  [JSON_ERROR_UTF8]: 'Malformed UTF-8 characters, possibly incorrectly encoded',
  [JSON_ERROR_INVALID_PROPERTY_NAME]: 'The decoded property name is invalid',
  [JSON_ERROR_UTF16]: 'Single unpaired UTF-16 surrogate in unicode escape',
};

export function jsonErrorMessage(code: JsonDecodeError): string {
  return MESSAGES[code];
}

export interface JsonParseOptions {
  /** Objects become stdClass objects (json_decode's `$associative` false) instead of arrays. */
  objects: boolean;
  /** json_decode's `$depth` (at least 1). */
  depth: number;
  /** JSON_BIGINT_AS_STRING, JSON_INVALID_UTF8_IGNORE, JSON_INVALID_UTF8_SUBSTITUTE. */
  flags: number;
}

/** `offset`: where in the text the error was found (a UTF-16 index). */
export type JsonParsed = { ok: true; value: Value } | { ok: false; error: JsonDecodeError; offset: number };

/** Deeper than this the parser refuses, whatever depth was asked for (keeps the JS stack safe). */
const HARD_DEPTH_LIMIT = 10000;

/** A run of string characters that need no attention: not `"`, `\`, a control character or a surrogate. */
const PLAIN_RUN = /[^"\\\x00-\x1f\ud800-\udfff]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const LOW_ESCAPE = /\\u[dD][c-fC-F][0-9a-fA-F]{2}/y;
const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

class Fail {
  constructor(
    readonly error: JsonDecodeError,
    readonly offset: number,
  ) {}
}

class Parser {
  private pos = 0;
  private nesting = 0;
  private readonly maxNesting: number;

  constructor(
    private readonly s: string,
    private readonly opts: JsonParseOptions,
  ) {
    this.maxNesting = Math.min(opts.depth, HARD_DEPTH_LIMIT);
  }

  /** Where the parser is: where it stopped, after a throw. */
  get offset(): number {
    return this.pos;
  }

  document(): Value {
    this.ws();
    const v = this.value();
    this.ws();
    if (this.pos < this.s.length) this.unexpected();
    return v;
  }

  private fail(error: JsonDecodeError, at = this.pos): never {
    throw new Fail(error, at);
  }

  /**
   * A token the grammar does not take here. PHP's scanner reads the whole token before its
   * parser sees it, so when the scanner refuses that token, its error is the one reported.
   */
  private unexpected(): never {
    const at = this.pos;
    const c = this.s.charCodeAt(at);
    if (c < 0x20) this.fail(JSON_ERROR_CTRL_CHAR);
    if (c === 0x22) this.string(); // throws the scanner's error, if any
    this.fail(JSON_ERROR_SYNTAX, at);
  }

  private ws(): void {
    const s = this.s;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      this.pos++;
    }
  }

  private value(): Value {
    const s = this.s;
    const c = s.charCodeAt(this.pos);
    if (c === 0x7b) return this.object();
    if (c === 0x5b) return this.array();
    if (c === 0x22) return this.string();
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
    if (s.startsWith('true', this.pos)) return this.literal(4, true);
    if (s.startsWith('false', this.pos)) return this.literal(5, false);
    if (s.startsWith('null', this.pos)) return this.literal(4, null);
    this.unexpected();
  }

  private literal(n: number, v: Value): Value {
    this.pos += n;
    return v;
  }

  private enter(): void {
    // json_decode counts the values inside the innermost container as one more level.
    if (++this.nesting >= this.maxNesting) this.fail(JSON_ERROR_DEPTH);
    this.pos++;
    this.ws();
  }

  private array(): Value {
    this.enter();
    const list: Value[] = [];
    if (this.s.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
    } else {
      for (;;) {
        list.push(this.value());
        this.ws();
        const c = this.s.charCodeAt(this.pos);
        if (c === 0x5d) break;
        if (c !== 0x2c) this.unexpected();
        this.pos++;
        this.ws();
      }
      this.pos++;
    }
    this.nesting--;
    return PhpArray.fromList(list);
  }

  private object(): Value {
    this.enter();
    const objects = this.opts.objects;
    const arr = objects ? null : PhpArray.empty();
    const obj = objects ? new PhpObject() : null;
    if (this.s.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
    } else {
      for (;;) {
        if (this.s.charCodeAt(this.pos) !== 0x22) this.unexpected();
        const keyAt = this.pos;
        const key = this.string();
        this.ws();
        if (this.s.charCodeAt(this.pos) !== 0x3a) this.unexpected();
        this.pos++;
        this.ws();
        const v = this.value();
        if (obj) {
          if (key.charCodeAt(0) === 0) this.fail(JSON_ERROR_INVALID_PROPERTY_NAME, keyAt);
          obj.set(key, v);
        } else arr!.set(key, v);
        this.ws();
        const c = this.s.charCodeAt(this.pos);
        if (c === 0x7d) break;
        if (c !== 0x2c) this.unexpected();
        this.pos++;
        this.ws();
      }
      this.pos++;
    }
    this.nesting--;
    return obj ?? arr!;
  }

  private number(): Value {
    NUMBER.lastIndex = this.pos;
    const r = NUMBER.exec(this.s);
    if (!r) this.unexpected();
    const text = r[0];
    this.pos += text.length;
    if (r[1] === undefined && r[2] === undefined) {
      const n = intOfDecimal(text);
      if (n !== null) return n;
      if (this.opts.flags & F.JSON_BIGINT_AS_STRING) return text;
    }
    return float(Number(text));
  }

  private string(): string {
    const s = this.s;
    const flags = this.opts.flags;
    this.pos++;
    let out = '';
    for (;;) {
      PLAIN_RUN.lastIndex = this.pos;
      PLAIN_RUN.test(s);
      const end = PLAIN_RUN.lastIndex;
      if (end > this.pos) {
        out += s.slice(this.pos, end);
        this.pos = end;
      }
      // The end of the text inside a string is PHP's terminating NUL: a control character.
      if (end >= s.length) this.fail(JSON_ERROR_CTRL_CHAR);
      const c = s.charCodeAt(end);
      if (c === 0x22) {
        this.pos++;
        return out;
      }
      if (c === 0x5c) {
        out += this.escape();
        continue;
      }
      if (c < 0x20) this.fail(JSON_ERROR_CTRL_CHAR);
      // A surrogate: a pair is a character; a lone one is a stray byte of invalid UTF-8 (value/bytes.ts).
      if (c <= 0xdbff && isLow(s.charCodeAt(end + 1))) {
        out += s.slice(end, end + 2);
        this.pos += 2;
        continue;
      }
      this.pos++;
      if (flags & F.JSON_INVALID_UTF8_IGNORE) continue;
      if (flags & F.JSON_INVALID_UTF8_SUBSTITUTE) out += '\ufffd';
      else this.fail(JSON_ERROR_UTF8, end);
    }
  }

  private escape(): string {
    const at = this.pos;
    const e = this.s[at + 1];
    if (e === 'u') {
      const hi = this.hex4(at + 2);
      this.pos = at + 6;
      if (hi >= 0xd800 && hi <= 0xdbff) {
        // PHP's scanner takes a high surrogate only with a low one's escape right after it.
        LOW_ESCAPE.lastIndex = this.pos;
        if (!LOW_ESCAPE.test(this.s)) this.fail(JSON_ERROR_UTF16, at);
        const lo = parseInt(this.s.slice(this.pos + 2, this.pos + 6), 16);
        this.pos += 6;
        return String.fromCharCode(hi, lo);
      }
      if (isLow(hi)) this.fail(JSON_ERROR_UTF16, at);
      return String.fromCharCode(hi);
    }
    const simple = e === undefined ? undefined : SIMPLE_ESCAPES[e];
    if (simple === undefined) this.fail(JSON_ERROR_SYNTAX, at);
    this.pos = at + 2;
    return simple;
  }

  private hex4(at: number): number {
    const h = this.s.slice(at, at + 4);
    if (!HEX4.test(h)) this.fail(JSON_ERROR_SYNTAX, at - 2);
    return parseInt(h, 16);
  }
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** JSON text as PHP values, or PHP's error code for it; never throws. json_decode's defaults: arrays, depth 512. */
export function parseJson(text: string, options: Partial<JsonParseOptions> = {}): JsonParsed {
  const opts: JsonParseOptions = {
    objects: options.objects ?? false,
    depth: options.depth ?? F.JSON_DEFAULT_DEPTH,
    flags: options.flags ?? 0,
  };
  const parser = new Parser(text, opts);
  try {
    return { ok: true, value: parser.document() };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, error: e.error, offset: e.offset };
    // Nesting that the JS stack cannot hold (some 4,800 levels on Node's default stack) is past
    // any depth this parser can give, as PHP's own limit is past its parser's: the same error.
    if (e instanceof RangeError && /call stack/i.test(e.message))
      return { ok: false, error: JSON_ERROR_DEPTH, offset: parser.offset };
    throw e;
  }
}

/**
 * json_decode($text, $assoc, $depth, $flags). Returns null for invalid JSON (as PHP does; a
 * literal `null` also gives null). `assoc` null means "objects unless JSON_OBJECT_AS_ARRAY".
 */
export function jsonDecode(text: string, assoc: boolean | null = true, depth = F.JSON_DEFAULT_DEPTH, flags = 0): Value {
  const asArray = assoc === null ? (flags & F.JSON_OBJECT_AS_ARRAY) !== 0 : assoc;
  const r = parseJson(text, { objects: !asArray, depth, flags });
  return r.ok ? r.value : null;
}
