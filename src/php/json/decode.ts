/**
 * PHP 8.2's json_decode: an order-preserving parser that builds PhpArray (assoc) or
 * PhpObject values, with PHP's number typing (ints up to 64 bits, floats beyond),
 * depth limit and UTF-8 rules. Any error gives null, as json_decode does.
 *
 * Precision caveat: PHP ints are 64-bit, ours are JavaScript numbers, so an integer between
 * 2^53 and 2^63 decodes as an int whose value is the nearest double (PHP keeps it exact).
 */
import { PhpArray, PhpObject, type Value, float } from '../../value/value.js';
import * as F from './flags.js';
import { int64OfDecimal, intOf } from '../../value/int64.js';

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Deeper than this the parser refuses, whatever depth was asked for (keeps the JS stack safe). */
const HARD_DEPTH_LIMIT = 10000;

class Parser {
  private pos = 0;
  private nesting = 0;

  constructor(
    private readonly s: string,
    private readonly assoc: boolean,
    private readonly maxDepth: number,
    private readonly flags: number,
  ) {}

  private error(what: string): never {
    throw new JsonSyntaxError(what, this.pos);
  }

  parseDocument(): Value {
    this.ws();
    const v = this.value();
    this.ws();
    if (this.pos < this.s.length) this.error('unexpected content after the value');
    return v;
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
    const c = this.s[this.pos];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    if (this.s.startsWith('true', this.pos)) return this.literal(4, true);
    if (this.s.startsWith('false', this.pos)) return this.literal(5, false);
    if (this.s.startsWith('null', this.pos)) return this.literal(4, null);
    this.error(c === undefined ? 'unexpected end of input' : `unexpected character ${JSON.stringify(c)}`);
  }

  private literal(n: number, v: Value): Value {
    this.pos += n;
    return v;
  }

  private enter(): void {
    this.nesting++;
    // json_decode counts the values inside the innermost container as one more level.
    if (this.nesting >= this.maxDepth || this.nesting > HARD_DEPTH_LIMIT) this.error('maximum depth exceeded');
  }

  private array(): Value {
    this.enter();
    this.pos++;
    const list: Value[] = [];
    this.ws();
    if (this.s[this.pos] === ']') {
      this.pos++;
    } else {
      for (;;) {
        this.ws();
        list.push(this.value());
        this.ws();
        const c = this.s[this.pos++];
        if (c === ']') break;
        if (c !== ',') this.error('expected , or ]');
      }
    }
    this.nesting--;
    return PhpArray.fromList(list);
  }

  private object(): Value {
    this.enter();
    this.pos++;
    const arr = this.assoc ? PhpArray.empty() : null;
    const obj = this.assoc ? null : new PhpObject();
    this.ws();
    if (this.s[this.pos] === '}') {
      this.pos++;
    } else {
      for (;;) {
        this.ws();
        if (this.s[this.pos] !== '"') this.error('expected a string key');
        const key = this.string();
        this.ws();
        if (this.s[this.pos++] !== ':') this.error('expected :');
        this.ws();
        const v = this.value();
        if (arr) arr.set(key, v);
        else {
          if (key.charCodeAt(0) === 0) this.error('the decoded property name is invalid');
          obj!.set(key, v);
        }
        this.ws();
        const c = this.s[this.pos++];
        if (c === '}') break;
        if (c !== ',') this.error('expected , or }');
      }
    }
    this.nesting--;
    return arr ?? obj!;
  }

  private number(): Value {
    const m = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
    m.lastIndex = this.pos;
    const r = m.exec(this.s);
    if (!r) this.error('malformed number');
    this.pos += r[0].length;
    const text = r[0];
    if (r[1] === undefined && r[2] === undefined) {
      const big = int64OfDecimal(text);
      if (big !== null) return intOf(big);
      if (this.flags & F.JSON_BIGINT_AS_STRING) return text;
    }
    return float(Number(text));
  }

  private string(): string {
    const s = this.s;
    this.pos++;
    let out = '';
    let start = this.pos;
    for (;;) {
      if (this.pos >= s.length) this.error('unterminated string');
      const c = s.charCodeAt(this.pos);
      if (c === 0x22) {
        out += s.slice(start, this.pos);
        this.pos++;
        return out;
      }
      if (c === 0x5c) {
        out += s.slice(start, this.pos);
        out += this.escape();
        start = this.pos;
        continue;
      }
      if (c < 0x20) this.error('control character in string');
      if (c >= 0xd800 && c <= 0xdfff) {
        const paired = c <= 0xdbff && isLow(s.charCodeAt(this.pos + 1));
        if (paired) {
          this.pos += 2;
          continue;
        }
        // A lone surrogate is a stray byte of invalid UTF-8 (see bytes.ts).
        out += s.slice(start, this.pos);
        this.pos++;
        start = this.pos;
        if (this.flags & F.JSON_INVALID_UTF8_IGNORE) continue;
        if (this.flags & F.JSON_INVALID_UTF8_SUBSTITUTE) {
          out += '\ufffd';
          continue;
        }
        this.error('malformed UTF-8');
      }
      this.pos++;
    }
  }

  private escape(): string {
    const c = this.s[this.pos + 1];
    this.pos += 2;
    switch (c) {
      case '"':
        return '"';
      case '\\':
        return '\\';
      case '/':
        return '/';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'u': {
        const hi = this.hex4();
        if (hi >= 0xd800 && hi <= 0xdbff) {
          if (this.s[this.pos] === '\\' && this.s[this.pos + 1] === 'u') {
            this.pos += 2;
            const lo = this.hex4();
            if (isLow(lo)) return String.fromCharCode(hi, lo);
          }
          this.error('single unpaired UTF-16 surrogate');
        }
        if (isLow(hi)) this.error('single unpaired UTF-16 surrogate');
        return String.fromCharCode(hi);
      }
    }
    this.error('invalid escape');
  }

  private hex4(): number {
    const h = this.s.slice(this.pos, this.pos + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) this.error('invalid \\u escape');
    this.pos += 4;
    return parseInt(h, 16);
  }
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * json_decode($text, $assoc, $depth, $flags). Returns null for invalid JSON (as PHP does; a
 * literal `null` also gives null). `assoc` null means "objects unless JSON_OBJECT_AS_ARRAY".
 */
export function jsonDecode(text: string, assoc: boolean | null = true, depth = F.JSON_DEFAULT_DEPTH, flags = 0): Value {
  const asArray = assoc === null ? (flags & F.JSON_OBJECT_AS_ARRAY) !== 0 : assoc;
  try {
    return new Parser(text, asArray, depth, flags).parseDocument();
  } catch (e) {
    if (e instanceof JsonSyntaxError) return null;
    throw e;
  }
}

/**
 * Parses JSON into template values with PHP's key order and key normalisation (objects
 * become arrays, "1" keys become int keys). Throws a SyntaxError naming the offset of the
 * problem, for the engine's reading of variable files.
 */
export function parseJsonToValue(text: string): Value {
  try {
    return new Parser(text, true, HARD_DEPTH_LIMIT, 0).parseDocument();
  } catch (e) {
    if (e instanceof JsonSyntaxError)
      throw new SyntaxError(`invalid JSON at offset ${e.offset}: ${e.message}`, { cause: e });
    throw e;
  }
}
