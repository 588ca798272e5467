/**
 * PHP pattern string → compiled JavaScript RegExp with PCRE semantics (PHP 8.2, PCRE2 10.42).
 *
 * compilePattern() returns a cached CompiledPattern, throws PcreCompileError for patterns
 * PHP rejects (callers turn it into PHP's warning and false/null), and PcreError for
 * features without an exact JavaScript translation.
 */
import { toBinary } from '../../runtime/bytes.js';
import { countMatches } from '../../runtime/count-matches.js';
import { Analysis } from './analyze.js';
import type { Node } from './ast.js';
import { splitPattern } from './delimiters.js';
import { type CaseMode, emitPattern } from './emit.js';
import { parsePattern } from './parser.js';
import { PcreCompileError, PcreError } from './pcre-error.js';

/** Patterns longer than this are refused (PCRE2's own limit is on the compiled size). */
export const MAX_PATTERN_LENGTH = 64 * 1024;

/**
 * V8 compiles a regular expression in one native step that the isolate's CPU timeout cannot
 * interrupt (HH-08). Its cost follows the Unicode property classes of the translation (\p{..},
 * which \w, \d, \s and \b become in UTF mode: 0.1-0.3 ms each; 32,000 \b in UTF mode took
 * 56 s) and, far less, the source length. Past these bounds a pattern is refused with
 * E_REGEX_TOO_LARGE: the worst case stays below about 100 ms.
 */
export const MAX_PROPERTY_CLASSES = 256;
export const MAX_SOURCE_LENGTH = 256 * 1024;

function checkCompileCost(sources: string[]): void {
  const tooLarge = (what: string) => new PcreError(`regular expression is too large to compile (${what})`, 'E_REGEX_TOO_LARGE');
  const length = sources.reduce((n, src) => n + src.length, 0);
  if (length > MAX_SOURCE_LENGTH) throw tooLarge(`${length} characters once translated, limit ${MAX_SOURCE_LENGTH}`);
  const classes = sources.reduce((n, src) => n + countMatches(src, /\\[pP]\{/g), 0);
  if (classes > MAX_PROPERTY_CLASSES) throw tooLarge(`${classes} Unicode property classes once translated, limit ${MAX_PROPERTY_CLASSES}`);
}

export interface CompiledPattern {
  utf: boolean;
  /** The A modifier: every match attempt is anchored at its start offset. */
  anchored: boolean;
  groupCount: number;
  /** names[i] is the name of group i, when it has one. */
  names: (string | undefined)[];
  source: string;
  flags: string;
  jsIndex: number[];
  /** Source of the "non-empty match anchored here" variant, or null when it can never succeed. */
  retrySource: string | null;
  retryIndex: number[];
  regexps: Map<string, RegExp>;
}

type CacheEntry = CompiledPattern | PcreCompileError | PcreError;

const CACHE_SIZE = 4096;
const cache = new Map<string, CacheEntry>();

export function compilePattern(pattern: string): CompiledPattern {
  let entry = cache.get(pattern);
  if (entry === undefined) {
    try {
      entry = compileUncached(pattern);
    } catch (e) {
      if (!(e instanceof PcreCompileError || e instanceof PcreError)) throw e;
      entry = e;
    }
    if (cache.size >= CACHE_SIZE) cache.clear();
    cache.set(pattern, entry);
  }
  if (entry instanceof Error) throw entry;
  return entry;
}

function compileUncached(pattern: string): CompiledPattern {
  const bin = toBinary(pattern);
  if (bin.length > MAX_PATTERN_LENGTH) {
    throw new PcreError(`regular expression is too large (${bin.length} bytes, limit ${MAX_PATTERN_LENGTH})`, 'E_REGEX_TOO_LARGE');
  }
  const { body, mods } = splitPattern(bin);
  const cps = mods.u ? utf8CodePoints(body) : Array.from(body, (c) => c.charCodeAt(0));
  const parsed = parsePattern(cps, mods.u, mods);
  const analysis = new Analysis(parsed.ast);
  analysis.check();
  const caseMode = caseModeOf(parsed.ast, mods.u);
  const opts = { utf: mods.u, caseMode, dollarEndOnly: mods.D };
  const main = emitPattern(parsed.ast, analysis, { ...opts, groupOffset: 0 });
  let retrySource: string | null = null;
  let retryIndex: number[] = [];
  if (!analysis.emptyMatchIsLast()) {
    // Group 1 holds the rest of the subject from the start; the match must not end there.
    const v = emitPattern(parsed.ast, analysis, { ...opts, groupOffset: 1 });
    retrySource = `(?=([\\s\\S]*))(?:${v.source})(?!\\1)`;
    retryIndex = v.jsIndex;
  }
  checkCompileCost(retrySource === null ? [main.source] : [main.source, retrySource]);
  const names: (string | undefined)[] = [];
  for (let i = 0; i <= parsed.groupCount; i++) names.push(parsed.names.get(i));
  const compiled: CompiledPattern = {
    utf: mods.u,
    anchored: mods.A,
    groupCount: parsed.groupCount,
    names,
    source: `(?:${main.source})`,
    flags: (mods.u ? 'u' : '') + (caseMode === 'flag' ? 'i' : ''),
    jsIndex: main.jsIndex,
    retrySource,
    retryIndex,
    regexps: new Map(),
  };
  // Compile once now so that a translation bug surfaces here, not in the middle of a loop.
  regexpFor(compiled, 'search', false);
  return compiled;
}

export type RegexpKind = 'search' | 'retry';

export function regexpFor(c: CompiledPattern, kind: RegexpKind, indices: boolean): RegExp {
  const key = kind + (indices ? 'd' : '');
  let re = c.regexps.get(key);
  if (!re) {
    const source = kind === 'retry' ? c.retrySource! : c.source;
    const sticky = kind === 'retry' || c.anchored;
    try {
      re = new RegExp(source, c.flags + (sticky ? 'y' : 'g') + (indices ? 'd' : ''));
    } catch (e) {
      throw new PcreError(`regular expression could not be translated: ${(e as Error).message}`);
    }
    c.regexps.set(key, re);
  }
  return re;
}

/** The body's code points in UTF mode; invalid UTF-8 is PHP's compile error. */
function utf8CodePoints(bin: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < bin.length; ) {
    const b = bin.charCodeAt(i);
    let n = 0;
    let cp = 0;
    if (b < 0x80) [n, cp] = [1, b];
    else if (b >= 0xc2 && b <= 0xdf) [n, cp] = [2, b & 0x1f];
    else if (b >= 0xe0 && b <= 0xef) [n, cp] = [3, b & 0x0f];
    else if (b >= 0xf0 && b <= 0xf4) [n, cp] = [4, b & 0x07];
    else throw utf8Error(i);
    if (i + n > bin.length) throw utf8Error(i);
    for (let k = 1; k < n; k++) {
      const c = bin.charCodeAt(i + k);
      if ((c & 0xc0) !== 0x80) throw utf8Error(i);
      cp = (cp << 6) | (c & 0x3f);
    }
    if ((n === 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (n === 4 && (cp < 0x10000 || cp > 0x10ffff))) {
      throw utf8Error(i);
    }
    out.push(cp);
    i += n;
  }
  return out;
}

function utf8Error(offset: number): PcreCompileError {
  return new PcreCompileError(`Compilation failed: UTF-8 error: invalid UTF-8 string at offset ${offset}`);
}

/**
 * `flag` when every case-relevant part of the pattern has the same caselessness and it is
 * on (JavaScript's i flag then matches PCRE), `manual` when (?i) switches it part way.
 */
function caseModeOf(ast: Node, utf: boolean): CaseMode {
  const seen = new Set<boolean>();
  const visit = (n: Node): void => {
    switch (n.type) {
      case 'seq':
        return n.items.forEach(visit);
      case 'alt':
        return n.branches.forEach(visit);
      case 'group':
      case 'repeat':
        return visit(n.body);
      case 'char':
        if (isCased(n.cp, utf)) seen.add(n.ci);
        return;
      case 'set':
        if (n.set.ranges.length > 0 || n.set.refs.some((r) => !CASELESS_REFS.has(r.name))) seen.add(n.ci);
        return;
      case 'backref':
        seen.add(n.ci);
        return;
    }
  };
  visit(ast);
  if (seen.size === 2) return 'manual';
  return seen.has(true) ? 'flag' : 'none';
}

const CASELESS_REFS = new Set(['d', 's', 'h', 'v', 'digit', 'space', 'blank', 'cntrl']);

function isCased(cp: number, utf: boolean): boolean {
  if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return true;
  if (!utf || cp < 0x80) return false;
  const s = String.fromCodePoint(cp);
  return s.toLowerCase() !== s || s.toUpperCase() !== s;
}
