/**
 * PHP pattern string → compiled JavaScript RegExp with PCRE semantics (PHP 8.2, PCRE2 10.42).
 *
 * compilePattern() returns a cached CompiledPattern, throws PcreCompileError for patterns
 * PHP rejects (callers turn it into PHP's warning and false/null), and PcreError for
 * features without an exact JavaScript translation.
 */
import { toBinary } from '../../value/bytes.js';
import { countMatches } from '../../value/count-matches.js';
import { Analysis } from './analyze.js';
import type { Node } from './ast.js';
import { splitPattern } from './delimiters.js';
import { type CaseMode, type Emitted, emitPattern } from './emit.js';
import { parsePattern } from './parser.js';
import { PcreCompileError, PcreError } from './pcre-error.js';
import { anchoringG, placeG } from './start-anchor.js';

/** \G where it can never hold, and where it holds only if the rest of the subject is hidden group 1's. */
const NEVER = '(?!)';
const REST_G = '(?=\\1$)';

/** Patterns longer than this are refused (PCRE2's own limit is on the compiled size). */
const MAX_PATTERN_LENGTH = 64 * 1024;

/**
 * V8 compiles a regular expression in one native step that the isolate's CPU timeout cannot
 * interrupt (HH-08). Its cost follows the Unicode property classes of the translation (\p{..},
 * which \w, \d, \s and \b become in UTF mode: 0.1-0.3 ms each; 32,000 \b in UTF mode took
 * 56 s) and, far less, the source length. Past these bounds a pattern is refused with
 * E_REGEX_TOO_LARGE: the worst case stays below about 100 ms.
 */
const MAX_PROPERTY_CLASSES = 256;
const MAX_SOURCE_LENGTH = 256 * 1024;

function checkCompileCost(sources: string[]): void {
  const tooLarge = (what: string) =>
    new PcreError(`regular expression is too large to compile (${what})`, 'E_REGEX_TOO_LARGE');
  const length = sources.reduce((n, src) => n + src.length, 0);
  if (length > MAX_SOURCE_LENGTH) throw tooLarge(`${length} characters once translated, limit ${MAX_SOURCE_LENGTH}`);
  const classes = sources.reduce((n, src) => n + countMatches(src, /\\[pP]\{/g), 0);
  if (classes > MAX_PROPERTY_CLASSES)
    throw tooLarge(`${classes} Unicode property classes once translated, limit ${MAX_PROPERTY_CLASSES}`);
}

export interface CompiledPattern {
  utf: boolean;
  /** The A modifier: every match attempt is anchored at its start offset. */
  anchored: boolean;
  /**
   * A \G that anchors every alternative: each match starts this many characters after the start
   * offset (0 for a leading \G, n for `(?<=\G.{n})`), found with the sticky flag; null without.
   */
  shift: number | null;
  /** The search RegExp is sticky (the A modifier, an anchoring \G, or the prefix of another \G form). */
  sticky: boolean;
  groupCount: number;
  /** names[i] is the name of group i, when it has one. */
  names: (string | undefined)[];
  source: string;
  flags: string;
  jsIndex: number[];
  /** Source of the "non-empty match anchored here" variant, or null when it can never succeed. */
  retrySource: string | null;
  retryIndex: number[];
  /**
   * \K, branch reset groups or a \G that does not anchor the pattern: the RegExp's match is
   * rewritten into PCRE's (matcher.ts), and jsIndex/retryIndex are then the identity.
   */
  ext: { search: Rewrite; retry: Rewrite } | null;
  /** The pattern can match the empty string somewhere (lookarounds and \K count as empty). */
  nullable: boolean;
  regexps: Map<string, RegExp>;
}

/** How to read PCRE's match out of one RegExp's. */
export interface Rewrite {
  /** PCRE group number → the JavaScript groups standing for it (at most one is set). */
  groups: number[][];
  /** JavaScript groups standing for \K: the reported start is the furthest one set. */
  keeps: number[];
  /** The JavaScript group holding the match itself when a lazy prefix found its start (0: none; unset: the RegExp's start). */
  wrap: number;
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
    throw new PcreError(
      `regular expression is too large (${bin.length} bytes, limit ${MAX_PATTERN_LENGTH})`,
      'E_REGEX_TOO_LARGE',
    );
  }
  const { body, mods } = splitPattern(bin);
  const cps = mods.u ? utf8CodePoints(body) : Array.from(body, (c) => c.charCodeAt(0));
  const parsed = parsePattern(cps, mods.u, mods);
  const anchor = anchoringG(parsed.ast);
  const ast = anchor ? anchor.node : parsed.ast;
  const shift = anchor ? anchor.shift : null;
  const places = placeG(ast);
  const kinds = new Set(places.values());
  // Past the start offset, a \G holds only in a lookbehind reaching back to it.
  if (shift && kinds.has('behind'))
    unsupported('\\G both in a lookbehind that anchors the pattern and in another lookbehind');
  // `rest`: hidden group 1 holds the subject from the start offset, and a \G is true where the
  // rest of the subject equals it; a lazy prefix walks from there to the match start.
  const rest = !shift && (kinds.has('maybe') || kinds.has('behind'));
  const anchoredSearch = mods.A || shift !== null;
  const split = !rest && !anchoredSearch && kinds.has('start');
  const analysis = new Analysis(ast);
  analysis.check();
  const caseMode = caseModeOf(ast, mods.u);
  const opts = { utf: mods.u, caseMode, dollarEndOnly: mods.D };
  const gForm = (atStart: string) => (n: Node) => (rest ? REST_G : places.get(n) === 'start' ? atStart : NEVER);
  let main: Emitted;
  let source: string;
  let wrap = 0;
  let extra: Emitted | null = null;
  if (rest) {
    main = emitPattern(ast, analysis, { ...opts, groupOffset: anchoredSearch ? 1 : 2, gSource: gForm('') });
    source = anchoredSearch ? `(?=([\\s\\S]*))(?:${main.source})` : `(?=([\\s\\S]*))[\\s\\S]*?(${main.source})`;
    if (!anchoredSearch) wrap = 2;
  } else if (split) {
    // At the start offset \G holds where nothing was consumed yet; one character on, nowhere.
    main = emitPattern(ast, analysis, { ...opts, groupOffset: 0, gSource: gForm('') });
    wrap = main.groupEnd;
    extra = emitPattern(ast, analysis, { ...opts, groupOffset: wrap, gSource: gForm(NEVER) });
    source = `(?:${main.source}|[\\s\\S]+?(${extra.source}))`;
  } else {
    // Anchored at the start offset (A, or a leading \G), or n characters past it (never \G there).
    main = emitPattern(ast, analysis, { ...opts, groupOffset: 0, gSource: gForm(shift ? NEVER : '') });
    source = `(?:${main.source})`;
  }
  let retry: Emitted | null = null;
  let retrySource: string | null = null;
  // A match anchored past the start offset can never start at it, as the retry must.
  if ((!analysis.emptyMatchIsLast() || analysis.hasKeep) && !shift) {
    // Group 1 holds the rest of the subject from the start; the match must not end there.
    retry = emitPattern(ast, analysis, { ...opts, groupOffset: 1, gSource: gForm('') });
    retrySource = `(?=([\\s\\S]*))(?:${retry.source})(?!\\1)`;
  }
  // The whole search source: the split form holds the pattern twice.
  checkCompileCost(retrySource === null ? [source] : [source, retrySource]);
  const names: (string | undefined)[] = [];
  for (let i = 0; i <= parsed.groupCount; i++) names.push(parsed.names.get(i));
  const both = (a: Emitted, b: Emitted | null, w: number): Rewrite => ({
    groups: a.jsGroups.map((g, i) => (b ? [...g, ...b.jsGroups[i]] : g)),
    keeps: b ? [...a.keeps, ...b.keeps] : a.keeps,
    wrap: w,
  });
  const extended = rest || split || analysis.hasKeep || main.jsGroups.some((g) => g.length > 1);
  const identity = Array.from({ length: parsed.groupCount + 1 }, (_, i) => i);
  const compiled: CompiledPattern = {
    utf: mods.u,
    anchored: mods.A,
    shift,
    // The rest and split forms find the match start with their own prefix.
    sticky: anchoredSearch || rest || split,
    groupCount: parsed.groupCount,
    names,
    source,
    flags: (mods.u ? 'u' : '') + (caseMode === 'flag' ? 'i' : ''),
    jsIndex: extended ? identity : main.jsIndex,
    retrySource,
    retryIndex: extended ? identity : (retry?.jsIndex ?? []),
    ext: extended ? { search: both(main, extra, wrap), retry: both(retry ?? main, null, 0) } : null,
    nullable: analysis.nullable(ast),
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
    const sticky = kind === 'retry' || c.sticky;
    try {
      re = new RegExp(source, c.flags + (sticky ? 'y' : 'g') + (indices ? 'd' : ''));
    } catch (e) {
      throw new PcreError(`regular expression could not be translated: ${(e as Error).message}`);
    }
    c.regexps.set(key, re);
  }
  return re;
}

function unsupported(what: string): never {
  throw new PcreError(`unsupported regular expression feature: ${what}`);
}

/** The body's code points in UTF mode; invalid UTF-8 is PHP's compile error. */
function utf8CodePoints(bin: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < bin.length;) {
    const b = bin.charCodeAt(i);
    let n: number;
    let cp: number;
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
      case 'any':
      case 'assert':
      case 'keep':
      case 'newline':
        break; // a leaf: nothing inside
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
