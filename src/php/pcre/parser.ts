/**
 * Parses a PCRE2 pattern body (PCRE2 10.42, as bundled with PHP 8.2) into the AST of ast.ts.
 *
 * Syntax PHP rejects raises PcreCompileError with PCRE2's message; syntax PHP accepts but
 * that has no exact JavaScript equivalent raises PcreError naming the feature.
 */
import { type CharSet, type ClassRef, type Node, INFINITE } from './ast.js';
import type { Modifiers } from './delimiters.js';
import { PcreCompileError, PcreError } from './pcre-error.js';
import { isPosixName } from './char-sets.js';
import { normalizePropertyName } from './properties.js';

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  x: boolean;
  n: boolean;
  U: boolean;
}

export interface Parsed {
  ast: Node;
  groupCount: number;
  /** Group number → name, for named groups. */
  names: Map<number, string>;
}

const QUANT_MAX = 65535;
const DIGIT = (c: number) => c >= 0x30 && c <= 0x39;
const OCTAL = (c: number) => c >= 0x30 && c <= 0x37;
const HEX = (c: number) => DIGIT(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const WORD_START = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const WORD = (c: number) => WORD_START(c) || DIGIT(c);
const ALNUM = (c: number) => WORD(c) && c !== 0x5f;

/** Escapes that stand for one character. */
const SIMPLE_ESCAPES: Record<string, number> = { a: 7, e: 27, f: 12, n: 10, r: 13, t: 9 };
const CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S', 'h', 'H', 'v', 'V']);

type ClassAtom = { cp: number } | { ref: ClassRef };

interface PendingRef {
  node: { index: number };
  name: string;
  offset: number;
}

export function parsePattern(cps: number[], utf: boolean, mods: Modifiers): Parsed {
  return new Parser(cps, utf, mods).run();
}

class Parser {
  private pos = 0;
  private groupCount = 0;
  private readonly names = new Map<number, string>();
  private readonly byName = new Map<string, number>();
  private readonly pendingNames: PendingRef[] = [];
  private readonly numericRefs: { index: number; offset: number }[] = [];
  private flags: Flags;
  private inQuote = false;
  /** Just left a \\Q...\\E run (a quantifier then applies to its last character). */
  private afterQuote = false;

  constructor(
    private readonly cps: number[],
    private readonly utf: boolean,
    mods: Modifiers,
  ) {
    this.flags = { i: mods.i, m: mods.m, s: mods.s, x: mods.x, n: mods.n, U: mods.U };
    if (mods.J) throw new PcreError('the J modifier (duplicate group names) is not supported');
  }

  run(): Parsed {
    const ast = this.parseAlt();
    if (this.pos < this.cps.length) this.fail('unmatched closing parenthesis', this.pos);
    for (const r of this.pendingNames) {
      const index = this.byName.get(r.name);
      if (index === undefined) this.fail('reference to non-existent subpattern', r.offset);
      r.node.index = index;
    }
    for (const r of this.numericRefs) {
      if (r.index > this.groupCount) this.fail('reference to non-existent subpattern', r.offset);
    }
    return { ast, groupCount: this.groupCount, names: this.names };
  }

  // ---- helpers ----

  private fail(msg: string, offset = this.pos): never {
    throw new PcreCompileError(`Compilation failed: ${msg} at offset ${offset}`);
  }

  private unsupported(feature: string): never {
    throw new PcreError(`unsupported regular expression feature: ${feature}`);
  }

  private peek(k = 0): number {
    return this.pos + k < this.cps.length ? this.cps[this.pos + k] : -1;
  }

  private ch(k = 0): string {
    const c = this.peek(k);
    return c < 0 ? '' : String.fromCodePoint(c);
  }

  /** The current character, moving past it. */
  private take(): string {
    const c = this.ch();
    this.pos++;
    return c;
  }

  private atEnd(): boolean {
    return this.pos >= this.cps.length;
  }

  private isExtendedSpace(c: number): boolean {
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) return true;
    return this.utf && (c === 0x85 || c === 0x200e || c === 0x200f || c === 0x2028 || c === 0x2029);
  }

  /** In x mode, skips white space and # comments. */
  private skipExtended(): void {
    if (!this.flags.x || this.inQuote) return;
    for (;;) {
      const c = this.peek();
      if (c >= 0 && this.isExtendedSpace(c)) {
        this.pos++;
      } else if (c === 0x23) {
        while (!this.atEnd() && this.peek() !== 0x0a) this.pos++;
      } else {
        return;
      }
    }
  }

  // ---- structure ----

  private parseAlt(): Node {
    const branches = [this.parseSeq()];
    while (this.peek() === 0x7c) {
      this.pos++;
      branches.push(this.parseSeq());
    }
    return branches.length === 1 ? branches[0] : { type: 'alt', branches };
  }

  private parseSeq(): Node {
    const items: Node[] = [];
    for (;;) {
      this.skipExtended();
      if (this.atEnd()) break;
      const c = this.peek();
      if (!this.inQuote && (c === 0x7c || c === 0x29)) break;
      const start = this.pos;
      if (!this.inQuote && this.quantifierAhead()) {
        // `\Qab\E+`: the quantifier applies to the last quoted character.
        const last = items[items.length - 1];
        if (!this.afterQuote || !last || last.type !== 'char')
          this.fail('quantifier does not follow a repeatable item', start);
        items.pop();
        this.afterQuote = false;
        items.push(this.parseQuantifier(last));
        continue;
      }
      const wasQuoted = this.inQuote;
      const atom = this.parseAtom();
      this.afterQuote = wasQuoted && !this.inQuote;
      if (atom === null) continue;
      this.skipExtended();
      items.push(this.parseQuantifier(atom));
    }
    return items.length === 1 ? items[0] : { type: 'seq', items };
  }

  /** A quantifier at the current position (`{` only when it forms a valid quantifier). */
  private quantifierAhead(): boolean {
    const c = this.peek();
    if (c === 0x2a || c === 0x2b || c === 0x3f) return true;
    return c === 0x7b && this.readBraces(false) !== null;
  }

  /** Reads `{n}`, `{n,}` or `{n,m}` at pos; null (and pos unchanged) when it is not one. */
  private readBraces(consume: boolean): [number, number] | null {
    let p = this.pos + 1;
    const num = (): string => {
      let s = '';
      while (p < this.cps.length && DIGIT(this.cps[p])) s += String.fromCharCode(this.cps[p++]);
      return s;
    };
    const a = num();
    if (a === '') return null;
    let b: string | null = a;
    if (this.cps[p] === 0x2c) {
      p++;
      b = num();
    }
    if (this.cps[p] !== 0x7d) return null;
    const min = Number(a);
    const max = b === '' ? INFINITE : Number(b);
    if (consume) {
      if (min > QUANT_MAX || (max !== INFINITE && max > QUANT_MAX)) this.fail('number too big in {} quantifier', p);
      if (max < min) this.fail('numbers out of order in {} quantifier', p);
      this.pos = p + 1;
    }
    return [min, max];
  }

  private parseQuantifier(atom: Node): Node {
    if (this.inQuote) return atom;
    const start = this.pos;
    const c = this.peek();
    let range: [number, number] | null = null;
    if (c === 0x2a) range = [0, INFINITE];
    else if (c === 0x2b) range = [1, INFINITE];
    else if (c === 0x3f) range = [0, 1];
    else if (c === 0x7b) range = this.readBraces(true);
    if (range === null) return atom;
    if (c !== 0x7b) this.pos++;
    if (atom.type === 'assert' || atom.type === 'keep')
      this.fail('quantifier does not follow a repeatable item', start);
    let greedy = !this.flags.U;
    let possessive = false;
    if (this.peek() === 0x2b) {
      possessive = true;
      greedy = true;
      this.pos++;
    } else if (this.peek() === 0x3f) {
      greedy = !greedy;
      this.pos++;
    }
    if (atom.type === 'group' && atom.kind !== 'capture' && atom.kind !== 'group' && atom.kind !== 'atomic') {
      this.unsupported('a quantifier on a lookaround assertion');
    }
    this.skipExtended();
    if (!this.atEnd() && this.quantifierAhead()) this.fail('quantifier does not follow a repeatable item', this.pos);
    return { type: 'repeat', body: atom, min: range[0], max: range[1], greedy, possessive };
  }

  private parseAtom(): Node | null {
    const c = this.peek();
    if (this.inQuote) {
      if (c === 0x5c && this.peek(1) === 0x45) {
        this.pos += 2;
        this.inQuote = false;
        return null;
      }
      this.pos++;
      return this.char(c);
    }
    switch (c) {
      case 0x28:
        return this.parseGroup();
      case 0x5b:
        return this.parseClass();
      case 0x2e:
        this.pos++;
        return { type: 'any', dotAll: this.flags.s };
      case 0x5e:
        this.pos++;
        return { type: 'assert', kind: 'start', multiline: this.flags.m, dollarEndOnly: false };
      case 0x24:
        this.pos++;
        return { type: 'assert', kind: 'end', multiline: this.flags.m, dollarEndOnly: false };
      case 0x5c:
        return this.parseEscape();
      default:
        this.pos++;
        return this.char(c);
    }
  }

  private char(cp: number): Node {
    return { type: 'char', cp, ci: this.flags.i };
  }

  // ---- groups ----

  private parseGroup(): Node | null {
    const start = this.pos;
    this.pos++;
    if (this.peek() === 0x2a) this.unsupported('backtracking control verbs and (*...) options');
    if (this.peek() !== 0x3f) {
      return this.flags.n ? this.groupBody('group', start) : this.capture(start, undefined);
    }
    this.pos++;
    const c = this.ch();
    switch (c) {
      case '#': {
        while (!this.atEnd() && this.peek() !== 0x29) this.pos++;
        if (this.atEnd()) this.fail('missing ) after (?# comment', this.pos);
        this.pos++;
        return null;
      }
      case ':':
        this.pos++;
        return this.groupBody('group', start);
      case '|':
        this.pos++;
        return this.branchReset(start);
      case '>':
        this.pos++;
        return this.groupBody('atomic', start);
      case '=':
        this.pos++;
        return this.groupBody('ahead', start);
      case '!':
        this.pos++;
        return this.groupBody('notAhead', start);
      case '<': {
        const n = this.ch(1);
        if (n === '=' || n === '!') {
          this.pos += 2;
          return this.groupBody(n === '=' ? 'behind' : 'notBehind', start);
        }
        this.pos++;
        return this.capture(start, this.readName('>'));
      }
      case "'":
        this.pos++;
        return this.capture(start, this.readName("'"));
      case 'P': {
        const n = this.ch(1);
        if (n === '<') {
          this.pos += 2;
          return this.capture(start, this.readName('>'));
        }
        if (n === '=') {
          this.pos += 2;
          const offset = this.pos;
          return this.namedRef(this.readName(')'), offset);
        }
        if (n === '>') this.unsupported('subroutine calls (?P>name)');
        this.fail('unrecognized character after (?P', this.pos + 1);
      }
      // falls through (fail throws)
      case 'R':
      case '&':
      case '+':
        this.unsupported('recursion and subroutine calls');
      // falls through
      case '(':
        this.unsupported('conditional groups (?(...)...)');
      // falls through
      case 'C':
        this.unsupported('callouts (?C...)');
    }
    if (DIGIT(this.peek()) || (c === '-' && DIGIT(this.peek(1)))) this.unsupported('recursion and subroutine calls');
    return this.parseOptions(start);
  }

  /** `(?imnsxU-imnsxU)` or `(?imsx:...)`. */
  private parseOptions(start: number): Node | null {
    const next = { ...this.flags };
    let on = true;
    if (this.peek() === 0x5e) {
      this.pos++;
      Object.assign(next, { i: false, m: false, n: false, s: false, x: false });
    }
    for (;;) {
      const c = this.ch();
      if (c === ')' || c === ':') break;
      if (c === '-' && on) {
        on = false;
      } else if (c === 'i' || c === 'm' || c === 'n' || c === 's' || c === 'x' || c === 'U') {
        if (c === 'x' && this.peek(1) === 0x78) this.unsupported('the (?xx) option');
        next[c] = on;
      } else if (c === 'J') {
        this.unsupported('the (?J) option (duplicate group names)');
      } else if (c === '') {
        this.fail('missing closing parenthesis', this.pos);
      } else {
        this.fail('unrecognized character after (? or (?-', this.pos);
      }
      this.pos++;
    }
    if (this.ch() === ')') {
      this.pos++;
      this.flags = next;
      return null;
    }
    this.pos++;
    const saved = this.flags;
    this.flags = next;
    const node = this.groupBody('group', start, saved);
    return node;
  }

  private capture(start: number, name: string | undefined): Node {
    const index = ++this.groupCount;
    if (name !== undefined) {
      // In a branch reset the same number may come back, named alike or not at all.
      const named = this.byName.get(name);
      if (named !== undefined && named !== index) {
        this.fail('two named subpatterns have the same name (PCRE2_DUPNAMES not set)', this.pos);
      }
      const other = this.names.get(index);
      if (other !== undefined && other !== name) {
        this.fail('different names for subpatterns of the same number are not allowed', this.pos);
      }
      this.byName.set(name, index);
      this.names.set(index, name);
    }
    return this.groupBody('capture', start, undefined, index, name);
  }

  /** `(?|...)`: each alternative numbers its groups from the same start; the group count goes on from the largest. */
  private branchReset(start: number): Node {
    const saved = { ...this.flags };
    const base = this.groupCount;
    let max = base;
    const branches: Node[] = [];
    for (;;) {
      this.groupCount = base;
      branches.push(this.parseSeq());
      max = Math.max(max, this.groupCount);
      if (this.peek() !== 0x7c) break;
      this.pos++;
    }
    if (this.peek() !== 0x29) this.fail('missing closing parenthesis', this.cps.length);
    this.pos++;
    this.flags = saved;
    this.groupCount = max;
    const body: Node = branches.length === 1 ? branches[0] : { type: 'alt', branches };
    return { type: 'group', kind: 'group', body, index: 0, offset: start, reset: true };
  }

  private groupBody(
    kind: 'capture' | 'group' | 'atomic' | 'ahead' | 'notAhead' | 'behind' | 'notBehind',
    start: number,
    restore?: Flags,
    index = 0,
    name?: string,
  ): Node {
    const saved = restore ?? { ...this.flags };
    const body = this.parseAlt();
    if (this.peek() !== 0x29) this.fail('missing closing parenthesis', this.cps.length);
    this.pos++;
    this.flags = saved;
    return { type: 'group', kind, body, index, name, offset: start };
  }

  private readName(end: string): string {
    const start = this.pos;
    if (DIGIT(this.peek())) this.fail('subpattern name must start with a non-digit', this.pos);
    let name = '';
    while (!this.atEnd() && WORD(this.peek())) name += this.take();
    if (name === '') this.fail('subpattern name expected', this.pos);
    if (name.length > 32) this.fail('subpattern name is too long (maximum 32 code units)', start);
    if (this.ch() !== end) this.fail('syntax error in subpattern name (missing terminator?)', this.pos);
    this.pos++;
    return name;
  }

  private namedRef(name: string, offset: number): Node {
    const node: Node = { type: 'backref', index: 0, ci: this.flags.i, offset };
    this.pendingNames.push({ node, name, offset });
    return node;
  }

  private numberRef(index: number, offset: number): Node {
    this.numericRefs.push({ index, offset });
    return { type: 'backref', index, ci: this.flags.i, offset };
  }

  // ---- escapes ----

  private parseEscape(): Node | null {
    const start = this.pos;
    this.pos++;
    if (this.atEnd()) this.fail('\\ at end of pattern', this.pos);
    const c = this.ch();
    const assert = (kind: 'A' | 'z' | 'Z' | 'b' | 'B' | 'G'): Node => {
      this.pos++;
      return { type: 'assert', kind, multiline: this.flags.m, dollarEndOnly: false };
    };
    switch (c) {
      case 'Q':
        this.pos++;
        this.inQuote = true;
        return null;
      case 'E':
        this.pos++;
        return null;
      case 'A':
      case 'z':
      case 'Z':
      case 'b':
      case 'B':
        return assert(c);
      case 'G':
        return assert('G');
      case 'K':
        this.pos++;
        return { type: 'keep', offset: start };
      case 'X':
        this.unsupported('\\X (extended grapheme cluster)');
      // falls through
      case 'C':
        this.unsupported('\\C (single code unit)');
      // falls through
      case 'R':
        this.pos++;
        return { type: 'newline' };
      case 'N':
        // \N{U+hhhh} is a character; \N followed by a {n,m} quantifier is "not a newline".
        if (!(this.ch(1) === '{' && this.ch(2) === 'U' && this.ch(3) === '+')) {
          this.pos++;
          return { type: 'any', dotAll: false };
        }
        break;
      case 'g':
        return this.parseGRef(start);
      case 'k':
        return this.parseKRef(start);
    }
    if (DIGIT(this.peek()) && this.peek() !== 0x30) {
      const ref = this.tryNumericBackref(start);
      if (ref) return ref;
    }
    const atom = this.parseCharEscape(false);
    if ('ref' in atom) return { type: 'set', set: { neg: false, ranges: [], refs: [atom.ref] }, ci: this.flags.i };
    return this.char(atom.cp);
  }

  /** `\1`..`\9`, and larger numbers when that many groups precede; otherwise octal. */
  private tryNumericBackref(start: number): Node | null {
    let p = this.pos;
    let s = '';
    while (p < this.cps.length && DIGIT(this.cps[p])) s += String.fromCharCode(this.cps[p++]);
    const n = Number(s);
    const first = this.cps[this.pos];
    if (n < 10 || first === 0x38 || first === 0x39 || n <= this.groupCount) {
      this.pos = p;
      return this.numberRef(n, start);
    }
    return null;
  }

  private parseGRef(start: number): Node {
    this.pos++;
    let text: string;
    if (this.ch() === '{') {
      this.pos++;
      text = '';
      while (!this.atEnd() && this.ch() !== '}') text += this.take();
      if (this.atEnd())
        this.fail(
          '\\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number',
          this.pos,
        );
      this.pos++;
    } else if (this.ch() === '<' || this.ch() === "'") {
      this.unsupported('subroutine calls \\g<...>');
    } else {
      text = '';
      if (this.ch() === '-' || this.ch() === '+') text += this.take();
      while (DIGIT(this.peek())) text += this.take();
    }
    if (/^-?\d+$/.test(text)) {
      let n = Number(text);
      if (n === 0) this.fail('a numbered reference must not be zero', this.pos);
      if (n < 0) {
        n = this.groupCount + 1 + n;
        if (n <= 0) this.fail('reference to non-existent subpattern', this.pos);
      }
      return this.numberRef(n, start);
    }
    if (/^[A-Za-z_]\w*$/.test(text)) return this.namedRef(text, start);
    return this.fail(
      '\\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number',
      this.pos,
    );
  }

  private parseKRef(start: number): Node {
    this.pos++;
    const open = this.ch();
    const close = open === '<' ? '>' : open === "'" ? "'" : open === '{' ? '}' : '';
    if (close === '') this.fail('\\k is not followed by a braced, angle-bracketed, or quoted name', this.pos);
    this.pos++;
    return this.namedRef(this.readName(close), start);
  }

  /**
   * An escape that denotes one character or a class (\d, \p{..}); pos is just after the
   * backslash. Inside a class digits are always octal and \b is a backspace.
   */
  private parseCharEscape(inClass: boolean): ClassAtom {
    const start = this.pos;
    const c = this.ch();
    const cp = this.peek();
    if (c in SIMPLE_ESCAPES) {
      this.pos++;
      return { cp: SIMPLE_ESCAPES[c] };
    }
    if (CLASS_ESCAPES.has(c)) {
      this.pos++;
      const lower = c.toLowerCase();
      return { ref: { name: lower, neg: c !== lower } };
    }
    if (c === 'p' || c === 'P') return { ref: this.parseProperty(c === 'P') };
    if (c === 'x') return { cp: this.parseHex() };
    if (c === 'o') return { cp: this.parseOctalBraces() };
    if (c === 'c') {
      this.pos++;
      if (this.atEnd()) this.fail('\\c at end of pattern', this.pos);
      let x = this.peek();
      if (x < 32 || x > 126) this.fail('\\c must be followed by a printable ASCII character', this.pos);
      if (x >= 0x61 && x <= 0x7a) x -= 32;
      this.pos++;
      return { cp: x ^ 0x40 };
    }
    if (c === 'N' && this.ch(1) === '{') {
      if (!this.utf) this.fail('\\N{U+dddd} is supported only in Unicode (UTF) mode', this.pos + 1);
      const m = /^\{U\+([0-9A-Fa-f]+)\}/.exec(String.fromCodePoint(...this.cps.slice(this.pos + 1, this.pos + 12)));
      if (!m) this.fail('\\N{U+dddd} is supported only in Unicode (UTF) mode', this.pos + 1);
      this.pos += 1 + m[0].length;
      return { cp: this.checkCodePoint(parseInt(m[1], 16)) };
    }
    if (DIGIT(cp)) {
      if (inClass && (cp === 0x38 || cp === 0x39)) {
        this.pos++;
        return { cp };
      }
      return { cp: this.parseOctalDigits() };
    }
    if (inClass && c === 'b') {
      this.pos++;
      return { cp: 8 };
    }
    if (ALNUM(cp)) {
      if (inClass && 'BRXNGK'.includes(c)) this.fail('escape sequence is invalid in character class', this.pos);
      if ('LlUu'.includes(c)) this.fail('PCRE2 does not support \\F, \\L, \\l, \\N{name}, \\U, or \\u', this.pos);
      this.fail('unrecognized character follows \\', start);
    }
    this.pos++;
    return { cp };
  }

  private checkCodePoint(n: number): number {
    if (!this.utf && n > 0xff) this.fail('character code point value in \\x{} or \\o{} is too large', this.pos);
    if (n > 0x10ffff) this.fail('character code point value in \\x{} or \\o{} is too large', this.pos);
    if (n >= 0xd800 && n <= 0xdfff) this.fail('disallowed Unicode code point (>= 0xd800 && <= 0xdfff)', this.pos);
    return n;
  }

  private parseHex(): number {
    this.pos++;
    if (this.ch() === '{') {
      let p = this.pos + 1;
      let s = '';
      while (p < this.cps.length && HEX(this.cps[p])) s += String.fromCharCode(this.cps[p++]);
      if (s !== '' && this.cps[p] === 0x7d) {
        this.pos = p + 1;
        return this.checkCodePoint(s.length > 8 ? INFINITE : parseInt(s, 16));
      }
      this.fail('\\x{ is not followed by hexadecimal digits and }', this.pos);
    }
    let s = '';
    while (s.length < 2 && HEX(this.peek())) s += this.take();
    return s === '' ? 0 : parseInt(s, 16);
  }

  private parseOctalBraces(): number {
    this.pos++;
    if (this.ch() !== '{') this.fail('missing opening brace after \\o', this.pos);
    let p = this.pos + 1;
    let s = '';
    while (p < this.cps.length && OCTAL(this.cps[p])) s += String.fromCharCode(this.cps[p++]);
    if (s === '' || this.cps[p] !== 0x7d) this.fail('non-octal character in \\o{} (closing brace missing?)', p);
    this.pos = p + 1;
    return this.checkCodePoint(s.length > 11 ? INFINITE : parseInt(s, 8));
  }

  /** Up to three octal digits (PCRE2: the value is truncated to 8 bits outside UTF mode). */
  private parseOctalDigits(): number {
    let s = '';
    while (s.length < 3 && OCTAL(this.peek())) s += this.take();
    if (s === '') {
      // \8 or \9 outside a class with no such group: PCRE2 treats them as backrefs (handled before).
      this.fail('reference to non-existent subpattern', this.pos);
    }
    const n = parseInt(s, 8);
    return this.utf ? n : n & 0xff;
  }

  private parseProperty(neg: boolean): ClassRef {
    this.pos++;
    let name: string;
    if (this.ch() === '{') {
      const close = this.cps.indexOf(0x7d, this.pos);
      if (close < 0) this.fail('malformed \\P or \\p sequence', this.pos);
      name = String.fromCodePoint(...this.cps.slice(this.pos + 1, close));
      this.pos = close + 1;
      if (name.startsWith('^')) {
        neg = !neg;
        name = name.slice(1);
      }
    } else {
      if (this.atEnd()) this.fail('malformed \\P or \\p sequence', this.pos);
      name = this.ch();
      this.pos++;
    }
    const key = normalizePropertyName(name);
    if (key === null) this.fail('unknown property after \\P or \\p', this.pos);
    return { name: 'p:' + key, neg };
  }

  // ---- classes ----

  private parseClass(): Node {
    const start = this.pos;
    this.pos++;
    const set: CharSet = { neg: false, ranges: [], refs: [] };
    if (this.peek() === 0x5e) {
      set.neg = true;
      this.pos++;
    }
    let first = true;
    for (;;) {
      if (this.atEnd()) this.fail('missing terminating ] for character class', this.cps.length);
      if (this.inQuote) {
        if (this.peek() === 0x5c && this.peek(1) === 0x45) {
          this.pos += 2;
          this.inQuote = false;
          continue;
        }
      } else {
        if (this.peek() === 0x5d && !first) {
          this.pos++;
          break;
        }
        if (this.peek() === 0x5c && (this.peek(1) === 0x51 || this.peek(1) === 0x45)) {
          this.inQuote = this.peek(1) === 0x51;
          this.pos += 2;
          continue;
        }
      }
      first = false;
      const left = this.classAtom();
      if (!this.inQuote && this.peek() === 0x2d && this.peek(1) !== 0x5d && this.peek(1) !== -1) {
        const dash = this.pos;
        this.pos++;
        if (this.peek() === 0x5c && this.peek(1) === 0x45) {
          // `a-\E]`: PCRE2 reads the \E and still sees a range; keep it simple and refuse.
          this.unsupported('\\E inside a character class range');
        }
        const right = this.classAtom();
        if ('ref' in left || 'ref' in right) this.fail('invalid range in character class', this.pos - 1);
        if (right.cp < left.cp) this.fail('range out of order in character class', this.pos - 1);
        void dash;
        set.ranges.push([left.cp, right.cp]);
        continue;
      }
      if ('ref' in left) set.refs.push(left.ref);
      else set.ranges.push([left.cp, left.cp]);
    }
    void start;
    return { type: 'set', set, ci: this.flags.i };
  }

  private classAtom(): ClassAtom {
    const c = this.peek();
    if (this.inQuote) {
      this.pos++;
      return { cp: c };
    }
    if (c === 0x5b) {
      const posix = this.tryPosix();
      if (posix) return posix;
    }
    if (c === 0x5c) {
      this.pos++;
      if (this.atEnd()) this.fail('\\ at end of pattern', this.pos);
      return this.parseCharEscape(true);
    }
    this.pos++;
    return { cp: c };
  }

  /** `[:name:]`, `[:^name:]`; `[.x.]` and `[=x=]` are errors as in PCRE2. */
  private tryPosix(): ClassAtom | null {
    const kind = this.peek(1);
    if (kind !== 0x3a && kind !== 0x2e && kind !== 0x3d) return null;
    // PCRE2 only treats it as POSIX syntax when the terminator `:]` follows before any `]`.
    let p = this.pos + 2;
    while (p < this.cps.length && this.cps[p] !== 0x5d) {
      if (this.cps[p] === kind && this.cps[p + 1] === 0x5d) break;
      if (this.cps[p] === 0x5c) p++;
      p++;
    }
    if (!(this.cps[p] === kind && this.cps[p + 1] === 0x5d)) return null;
    if (kind !== 0x3a) this.fail('POSIX collating elements are not supported', this.pos);
    let name = String.fromCodePoint(...this.cps.slice(this.pos + 2, p));
    let neg = false;
    if (name.startsWith('^')) {
      neg = true;
      name = name.slice(1);
    }
    if (!isPosixName(name)) this.fail('unknown POSIX class name', this.pos);
    this.pos = p + 2;
    return { ref: { name, neg } };
  }
}
