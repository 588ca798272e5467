/**
 * Writes the JavaScript source for a parsed PCRE pattern.
 *
 * Non-UTF patterns run over a "byte view" of the subject in which bytes 0x80..0xFF are
 * the private-use characters U+E080..U+E0FF: they then never fold under JavaScript's `i`
 * flag, as PCRE's C-locale tables never fold them. UTF patterns run with the `u` flag.
 *
 * PCRE groups all become plain numbered JavaScript groups (names are kept on our side);
 * atomic groups and possessive quantifiers are the exact idiom `(?=(X))\k`, which adds a
 * hidden group, so `jsIndex` maps PCRE group numbers to JavaScript ones. A branch reset group
 * gives one PCRE number several JavaScript groups (`jsGroups`), at most one of them set by a
 * match; \K is a hidden empty group (`keeps`) whose position is the reported start.
 */
import type { CharSet, Node } from './ast.js';
import { INFINITE } from './ast.js';
import type { Analysis } from './analyze.js';
import { type ByteSet, isCaseSensitiveRef, refBytes, refUnicode } from './char-sets.js';
import { PcreError } from './pcre-error.js';

export type CaseMode = 'none' | 'flag' | 'manual';

export interface EmitOptions {
  utf: boolean;
  caseMode: CaseMode;
  dollarEndOnly: boolean;
  /** Hidden groups placed before the pattern (the non-empty retry variant adds one). */
  groupOffset: number;
  /** What each \G node becomes (start-anchor.ts decides); none may be left without it. */
  gSource?: (n: Node) => string;
}

export interface Emitted {
  source: string;
  /** PCRE group number → JavaScript group number (the first, for a branch reset number). */
  jsIndex: number[];
  /** PCRE group number → every JavaScript group for it. */
  jsGroups: number[][];
  /** The JavaScript groups standing for \K. */
  keeps: number[];
  /** The first JavaScript group number after this pattern's. */
  groupEnd: number;
}

const BYTE_BASE = 0xe000;

function unsupported(what: string): never {
  throw new PcreError(`unsupported regular expression feature: ${what}`);
}

const ALNUM = /^[A-Za-z0-9]$/;

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

export function emitPattern(ast: Node, analysis: Analysis, opts: EmitOptions): Emitted {
  const e = new Emitter(analysis, opts);
  const source = e.node(ast);
  return { source, jsIndex: e.jsIndex, jsGroups: e.jsGroups, keeps: e.keeps, groupEnd: e.groupEnd };
}

class Emitter {
  readonly jsIndex: number[] = [0];
  readonly jsGroups: number[][] = [[0]];
  readonly keeps: number[] = [];
  private next: number;
  /** Inside a negative lookaround, where PCRE ignores \K. */
  private negative = 0;

  constructor(
    private readonly analysis: Analysis,
    private readonly opts: EmitOptions,
  ) {
    this.next = opts.groupOffset + 1;
  }

  get groupEnd(): number {
    return this.next;
  }

  private get manual(): boolean {
    return this.opts.caseMode === 'manual';
  }

  /** One code point (or byte) as a JavaScript pattern character. */
  lit(cp: number): string {
    const s = String.fromCodePoint(cp);
    if (ALNUM.test(s)) return s;
    if (!this.opts.utf) return cp < 0x80 ? '\\x' + hex(cp, 2) : '\\u' + hex(BYTE_BASE + cp, 4);
    return cp <= 0xffff ? '\\u' + hex(cp, 4) : `\\u{${cp.toString(16)}}`;
  }

  node(n: Node): string {
    switch (n.type) {
      case 'seq':
        return n.items.map((x) => this.node(x)).join('');
      case 'alt':
        return n.branches.map((x) => this.node(x)).join('|');
      case 'char':
        return this.char(n.cp, n.ci);
      case 'set':
        return this.set(n.set, n.ci);
      case 'any':
        return n.dotAll ? '[\\s\\S]' : '[^\\n]';
      case 'newline':
        return this.opts.utf
          ? '(?:\\r\\n|(?!\\r\\n)[\\n\\x0b\\f\\r\\x85\\u2028\\u2029])'
          : '(?:\\r\\n|(?!\\r\\n)[\\n\\x0b\\f\\r\\ue085])';
      case 'assert':
        return this.assert(n);
      case 'group':
        return this.group(n);
      case 'repeat':
        return this.repeat(n);
      case 'backref': {
        if (this.manual && n.ci)
          unsupported('a case-insensitive backreference in a pattern that is only partly case-insensitive');
        // A branch reset number: JavaScript matches an unset group as empty, so the one set counts.
        return `(?:${this.jsGroups[n.index].map((j) => `\\${j}`).join('')})`;
      }
      case 'keep':
        if (this.negative > 0) return '';
        this.keeps.push(this.next++);
        return '()';
    }
  }

  private assert(n: Node & { type: 'assert' }): string {
    const endOrFinalNewline = '(?=\\n?$)';
    switch (n.kind) {
      case 'start':
        // PCRE's multiline ^ does not match after a newline that ends the subject.
        return n.multiline ? '(?:^|(?<=\\n)(?=[\\s\\S]))' : '^';
      case 'end':
        if (n.multiline) return '(?=\\n|$)';
        return this.opts.dollarEndOnly ? '$' : endOrFinalNewline;
      case 'A':
        return '^';
      case 'G':
        if (!this.opts.gSource) throw new Error('pcre: a \\G left in a pattern translated without a form for it');
        return this.opts.gSource(n);
      case 'z':
        return '$';
      case 'Z':
        return endOrFinalNewline;
      case 'b':
      case 'B': {
        if (!this.opts.utf) return '\\' + n.kind;
        const w = '[\\p{L}\\p{N}_]';
        return n.kind === 'b' ? `(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))` : `(?:(?<=${w})(?=${w})|(?<!${w})(?!${w}))`;
      }
    }
  }

  private group(n: Node & { type: 'group' }): string {
    switch (n.kind) {
      case 'capture': {
        const js = this.next++;
        if (this.jsIndex[n.index] === undefined) this.jsIndex[n.index] = js;
        (this.jsGroups[n.index] ??= []).push(js);
        return `(${this.node(n.body)})`;
      }
      case 'group':
        return `(?:${this.node(n.body)})`;
      case 'atomic':
        return this.atomic(() => this.node(n.body));
      case 'ahead':
        return `(?=${this.node(n.body)})`;
      case 'notAhead':
        return `(?!${this.negated(n.body)})`;
      case 'behind':
        return `(?<=${this.node(n.body)})`;
      case 'notBehind':
        return `(?<!${this.negated(n.body)})`;
    }
  }

  private negated(body: Node): string {
    this.negative++;
    try {
      return this.node(body);
    } finally {
      this.negative--;
    }
  }

  /** `(?>X)` is exactly a lookahead (never backtracked into) followed by what it matched. */
  private atomic(inner: () => string): string {
    const idx = this.next++;
    return `(?:(?=(${inner()}))\\${idx})`;
  }

  private repeat(n: Node & { type: 'repeat' }): string {
    const build = (): string => {
      const body = this.node(n.body);
      if (n.min === 0 && n.max === 1 && this.analysis.nullable(n.body)) {
        // JavaScript's ? refuses an empty iteration, PCRE's takes it (and sets captures).
        return n.greedy ? `(?:${body}|)` : `(?:|${body})`;
      }
      const atom = isAtom(n.body) ? body : `(?:${body})`;
      return atom + quantifier(n.min, n.max) + (n.greedy ? '' : '?');
    };
    return n.possessive ? this.atomic(build) : build();
  }

  // ---- characters and classes ----

  private char(cp: number, ci: boolean): string {
    if (!(ci && this.manual)) return this.lit(cp);
    const variants = this.caseVariants(cp);
    return variants.length === 1 ? this.lit(cp) : `[${variants.map((v) => this.lit(v)).join('')}]`;
  }

  /** The characters PCRE treats as equal to cp when caseless (manual folding). */
  private caseVariants(cp: number): number[] {
    const isLetter = (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
    if (isLetter) {
      const lower = cp | 0x20;
      const out = [lower, lower - 32];
      if (this.opts.utf && lower === 0x6b) out.push(0x212a);
      if (this.opts.utf && lower === 0x73) out.push(0x17f);
      return out;
    }
    if (this.opts.utf && cp >= 0x80) {
      const s = String.fromCodePoint(cp);
      if (s.toLowerCase() !== s || s.toUpperCase() !== s) {
        unsupported('case-insensitive non-ASCII letters in a pattern that is only partly case-insensitive');
      }
    }
    return [cp];
  }

  private set(set: CharSet, ci: boolean): string {
    for (const r of set.refs) {
      if (ci && isCaseSensitiveRef(r) && (this.opts.utf || r.name.startsWith('p:'))) {
        unsupported(
          `case-insensitive matching with ${r.name.startsWith('p:') ? '\\p{' + r.name.slice(2) + '}' : '[:' + r.name + ':]'}`,
        );
      }
    }
    return this.opts.utf ? this.unicodeSet(set, ci) : this.byteSet(set, ci);
  }

  private byteSet(set: CharSet, ci: boolean): string {
    const bits: ByteSet = new Array(256).fill(false);
    for (const [lo, hi] of set.ranges) for (let b = lo; b <= hi; b++) bits[b] = true;
    for (const r of set.refs) refBytes(r).forEach((on, b) => on && (bits[b] = true));
    if (ci && this.manual) {
      for (let b = 0x41; b <= 0x5a; b++) if (bits[b] || bits[b + 32]) bits[b] = bits[b + 32] = true;
    }
    let body = '';
    for (let b = 0; b < 256; b++) {
      if (!bits[b]) continue;
      let end = b;
      const limit = b < 0x80 ? 0x7f : 0xff;
      while (end + 1 <= limit && bits[end + 1]) end++;
      body += end === b ? this.lit(b) : end === b + 1 ? this.lit(b) + this.lit(end) : `${this.lit(b)}-${this.lit(end)}`;
      b = end;
    }
    return `[${set.neg ? '^' : ''}${body}]`;
  }

  private unicodeSet(set: CharSet, ci: boolean): string {
    let pos = '';
    const comps: string[] = [];
    const ranges: [number, number][] = [...set.ranges];
    if (ci && this.manual) {
      for (const [lo, hi] of set.ranges) {
        for (let c = lo; c <= Math.min(hi, 0x7f); c++) {
          const variants = this.caseVariants(c);
          for (const v of variants) if (v !== c) ranges.push([v, v]);
        }
        if (hi >= 0x80) {
          for (let c = Math.max(lo, 0x80); c <= hi; c++) this.caseVariants(c);
        }
      }
    }
    for (const [lo, hi] of ranges) pos += lo === hi ? this.lit(lo) : `${this.lit(lo)}-${this.lit(hi)}`;
    for (const r of set.refs) {
      const u = refUnicode(r);
      if (u.complement) comps.push(u.body);
      else pos += u.body;
    }
    if (comps.length === 0) return `[${set.neg ? '^' : ''}${pos}]`;
    if (!set.neg) {
      const parts = comps.map((c) => `[^${c}]`);
      if (pos) parts.unshift(`[${pos}]`);
      return `(?:${parts.join('|')})`;
    }
    // Not in any positive item, and in every complemented one.
    const last = comps.pop()!;
    return `(?:${pos ? `(?![${pos}])` : ''}${comps.map((c) => `(?=[${c}])`).join('')}[${last}])`;
  }
}

function isAtom(n: Node): boolean {
  return (
    n.type === 'char' ||
    n.type === 'set' ||
    n.type === 'any' ||
    n.type === 'group' ||
    n.type === 'backref' ||
    n.type === 'newline'
  );
}

function quantifier(min: number, max: number): string {
  if (max === INFINITE) return min === 0 ? '*' : min === 1 ? '+' : `{${min},}`;
  if (min === 0 && max === 1) return '?';
  return min === max ? `{${min}}` : `{${min},${max}}`;
}

export { BYTE_BASE };
