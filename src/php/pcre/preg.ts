/**
 * PHP 8.2's preg_* functions over translated patterns (see translate.ts).
 *
 * Patterns PHP cannot compile give PHP's result (false or null) and a warning through
 * `warn`; patterns with features we cannot translate exactly throw PcreError. Offsets
 * (the offset argument, PREG_OFFSET_CAPTURE) are in bytes, as in PHP.
 */
import { MAX_STRING_LENGTH, checkArrayLength, checkStringLength } from '../../value/limits.js';
import { NATIVE_REPLACE_MAX } from '../../value/replace-each.js';
import { PhpArray, PhpObject, type Value } from '../../value/value.js';
import { PhpTypeError, toStr } from '../../value/convert.js';
import { arrayArg, int32Arg, intArg, strArg } from '../args.js';
import { toBinary, fromBinary } from '../../value/bytes.js';
import { eachMatch, eachRawMatch, execAt, type Match } from './matcher.js';
import { PcreCompileError } from './pcre-error.js';
import { parseReplacement } from './replacement.js';
import { byteSubject, type Subject, utf8Subject } from './subject.js';
import { type CompiledPattern, compilePattern, regexpFor } from './translate.js';

const PREG_PATTERN_ORDER = 1;
const PREG_SET_ORDER = 2;
const PREG_OFFSET_CAPTURE = 256;
const PREG_UNMATCHED_AS_NULL = 512;
const PREG_SPLIT_NO_EMPTY = 1;
const PREG_SPLIT_DELIM_CAPTURE = 2;
const PREG_SPLIT_OFFSET_CAPTURE = 4;
const PREG_GREP_INVERT = 1;

export type Warn = (message: string) => void;

/** What a preg_match / preg_match_all call returns, and what it leaves in `$matches` (null: untouched). */
export interface MatchResult {
  result: number | false;
  matches: PhpArray | null;
}

function compileOrWarn(pattern: string, fn: string, warn: Warn): CompiledPattern | null {
  try {
    return compilePattern(pattern);
  } catch (e) {
    if (e instanceof PcreCompileError) {
      warn(`${fn}(): ${e.message}`);
      return null;
    }
    throw e;
  }
}

function subjectFor(c: CompiledPattern, s: string): Subject | null {
  return c.utf ? utf8Subject(s) : byteSubject(s);
}

/** PHP's start offset rules; null for a bad offset (past the end, or inside a UTF-8 character). */
function startIndex(subj: Subject, offset: number): number | null {
  let o = offset;
  if (o < 0) o = -o <= subj.byteLength ? subj.byteLength + o : 0;
  if (o > subj.byteLength) return null;
  const i = subj.indexOfByte(o);
  return i < 0 ? null : i;
}

// ---- building results ----

function groupValue(subj: Subject, m: Match, i: number, flags: number): Value {
  const v = i < m.count ? m.groups[i] : undefined;
  const text: Value = v === undefined ? (flags & PREG_UNMATCHED_AS_NULL ? null : '') : subj.text(v);
  if (!(flags & PREG_OFFSET_CAPTURE)) return text;
  return PhpArray.fromList([text, v === undefined ? -1 : subj.byteOffset(m.starts![i])]);
}

/** preg_match's $matches (and one set of PREG_SET_ORDER): trailing unset groups are left out. */
function subpatArray(c: CompiledPattern, subj: Subject, m: Match, flags: number): PhpArray {
  const arr = PhpArray.empty();
  const n = flags & PREG_UNMATCHED_AS_NULL ? c.groupCount + 1 : m.count;
  for (let i = 0; i < n; i++) {
    const name = c.names[i];
    if (name !== undefined) arr.set(name, groupValue(subj, m, i, flags));
    arr.push(groupValue(subj, m, i, flags));
  }
  return arr;
}

// ---- preg_match / preg_match_all ----

interface MatchCall {
  c: CompiledPattern;
  s: string;
  f: number;
  off: number;
}

/** The arguments preg_match and preg_match_all share, checked in PHP's order; null when the pattern does not compile (warned). */
function matchCall(
  fn: string,
  pattern: Value,
  subject: Value,
  flags: Value,
  offset: Value,
  warn: Warn,
): MatchCall | null {
  const pat = strArg(pattern, fn, 1, 'pattern');
  const s = strArg(subject, fn, 2, 'subject');
  const f = int32Arg(flags, fn, 4, 'flags');
  const off = intArg(offset, fn, 5, 'offset');
  const c = compileOrWarn(pat, fn, warn);
  return c && { c, s, f, off };
}

export function pregMatch(
  pattern: Value,
  subject: Value,
  flags: Value = 0,
  offset: Value = 0,
  warn: Warn = () => {},
): MatchResult {
  const fn = 'preg_match';
  const call = matchCall(fn, pattern, subject, flags, offset, warn);
  if (!call) return { result: false, matches: null };
  const { c, s, f, off } = call;
  if (f & 0xff) throw new PhpTypeError(`${fn}(): Argument #4 ($flags) must be a PREG_* constant`);
  const subj = subjectFor(c, s);
  if (!subj) return { result: false, matches: PhpArray.empty() };
  const from = startIndex(subj, off);
  if (from === null) return { result: false, matches: PhpArray.empty() };
  const m = execAt(c, subj, from, (f & PREG_OFFSET_CAPTURE) !== 0);
  if (!m) return { result: 0, matches: PhpArray.empty() };
  return { result: 1, matches: subpatArray(c, subj, m, f) };
}

export function pregMatchAll(
  pattern: Value,
  subject: Value,
  flags: Value = 0,
  offset: Value = 0,
  warn: Warn = () => {},
): MatchResult {
  const fn = 'preg_match_all';
  const call = matchCall(fn, pattern, subject, flags, offset, warn);
  if (!call) return { result: false, matches: null };
  const { c, s, f, off } = call;
  const order = f & 0xff || PREG_PATTERN_ORDER;
  if (order !== PREG_PATTERN_ORDER && order !== PREG_SET_ORDER) {
    throw new PhpTypeError(`${fn}(): Argument #4 ($flags) must be a PREG_* constant`);
  }
  const subj = subjectFor(c, s);
  const from = subj ? startIndex(subj, off) : 0;
  if (subj && from === null) return { result: false, matches: PhpArray.empty() };
  const columns =
    order === PREG_PATTERN_ORDER ? Array.from({ length: c.groupCount + 1 }, () => PhpArray.empty()) : null;
  const sets = PhpArray.empty();
  let matched = 0;
  if (subj) {
    eachMatch(c, subj, from!, (f & PREG_OFFSET_CAPTURE) !== 0, (m) => {
      matched++;
      checkArrayLength(matched, fn);
      if (columns) columns.forEach((col, i) => col.push(groupValue(subj, m, i, f)));
      else sets.push(subpatArray(c, subj, m, f));
      return true;
    });
  }
  let matches = sets;
  if (columns) {
    matches = PhpArray.empty();
    columns.forEach((col, i) => {
      const name = c.names[i];
      if (name !== undefined) {
        col.shared = true;
        matches.set(name, col);
      }
      matches.push(col);
    });
  }
  return { result: subj ? matched : false, matches };
}

// ---- preg_replace ----

export interface ReplaceResult {
  result: string | PhpArray | null;
  /** The replacements made (preg_replace's `$count`); null when the caller did not ask for it. */
  count: number | null;
}

/** The replacements made so far; null where no one reads them (a faster path may not count). */
type Counter = { n: number } | null;

export function pregReplace(
  pattern: Value,
  replacement: Value,
  subject: Value,
  limit: Value = -1,
  warn: Warn = () => {},
  counted = true,
): ReplaceResult {
  const fn = 'preg_replace';
  if (replacement instanceof PhpArray && !(pattern instanceof PhpArray)) {
    throw new PhpTypeError(
      `${fn}(): Argument #1 ($pattern) must be of type array when argument #2 ($replacement) is an array, string given`,
    );
  }
  if (!(pattern instanceof PhpArray)) strArg(pattern, fn, 1, 'pattern');
  if (!(replacement instanceof PhpArray)) strArg(replacement, fn, 2, 'replacement');
  if (!(subject instanceof PhpArray)) strArg(subject, fn, 3, 'subject');
  const lim = intArg(limit, fn, 4, 'limit');
  const max = lim < 0 ? Infinity : lim;
  const counter: Counter = counted ? { n: 0 } : null;
  const pairs = replacementPairs(pattern, replacement, warn);
  if (!(subject instanceof PhpArray)) {
    return { result: replaceInSubject(pairs, toStr(subject), max, counter, warn), count: counter?.n ?? null };
  }
  const out = PhpArray.empty();
  for (const [k, v] of subject.entries()) {
    const r = replaceInSubject(pairs, elementString(v, warn), max, counter, warn);
    if (r !== null) out.set(k, r);
  }
  return { result: out, count: counter?.n ?? null };
}

function elementString(v: Value, warn: Warn): string {
  if (v instanceof PhpArray) {
    warn('Array to string conversion');
    return 'Array';
  }
  if (v instanceof PhpObject) throw new PhpTypeError('Object of class stdClass could not be converted to string');
  return toStr(v);
}

function replacementPairs(pattern: Value, replacement: Value, warn: Warn): [string, string][] {
  if (!(pattern instanceof PhpArray)) return [[toStr(pattern), toStr(replacement)]];
  const repls = replacement instanceof PhpArray ? replacement.values() : null;
  return pattern
    .values()
    .map((p, i) => [
      elementString(p, warn),
      repls ? (i < repls.length ? elementString(repls[i], warn) : '') : toStr(replacement),
    ]);
}

function replaceInSubject(
  pairs: [string, string][],
  s: string,
  max: number,
  counter: Counter,
  warn: Warn,
): string | null {
  let cur = s;
  for (const [p, r] of pairs) {
    const next = replaceOne(p, r, cur, max, counter, warn);
    if (next === null) return null;
    cur = next;
  }
  return cur;
}

function replaceOne(
  pattern: string,
  replacement: string,
  s: string,
  max: number,
  counter: Counter,
  warn: Warn,
): string | null {
  const c = compileOrWarn(pattern, 'preg_replace', warn);
  if (!c) return null;
  const subj = subjectFor(c, s);
  if (!subj) return null;
  const parts = parseReplacement(subj.toView(replacement));
  if (max === Infinity && !c.sticky && c.ext === null && parts.every((p) => typeof p === 'string')) {
    const r = replaceNative(c, subj, parts.join(''), s, counter);
    if (r !== null) return r;
  }
  const view = subj.view;
  // The result in two levels: pieces, and chunks of 4,096 pieces joined. Millions of tiny
  // strings would exhaust the heap before the size check could refuse the result; joining the
  // result so far into the pieces instead copied it again every 4,096 pieces, quadratic in the
  // result's length (docs/security.md RX-05: 4 MB at eight copies per match ran past a 5 s CPU budget
  // before reaching the size cap).
  const chunks: string[] = [];
  const pieces: string[] = [];
  let size = 0;
  let last = 0;
  let done = 0;
  if (max > 0) {
    const groups = c.groupCount;
    eachRawMatch(c, subj, 0, false, (m, map) => {
      const piece = view.slice(last, m.index);
      pieces.push(piece);
      size += piece.length;
      for (const part of parts) {
        // An unset group, or one the pattern does not have, is empty.
        const t = typeof part === 'string' ? part : part <= groups ? (m[map[part]] ?? '') : '';
        pieces.push(t);
        size += t.length;
      }
      checkStringLength(size, 'preg_replace');
      if (pieces.length > 4096) {
        chunks.push(pieces.join(''));
        pieces.length = 0;
      }
      last = m.index + m[0].length;
      done++;
      return done < max;
    });
  }
  if (counter) counter.n += done;
  if (done === 0) return s;
  pieces.push(view.slice(last));
  chunks.push(pieces.join(''));
  return subj.text(chunks.join(''));
}

const EMPTY_MATCH = {};

/**
 * No limit and a replacement without group references: as long as no match is empty, every
 * search starts where the last match ended, in PHP's loop and in the RegExp's own replace,
 * which costs a fraction per match (`|regex_replace:"/\s+/":" "` over ~300 characters with ~47
 * matches: 10.1 -> 3.8 µs inside an isolate). Null at the first empty match (PHP then retries a
 * non-empty match at the same place, which the loop does), and when the result could pass the
 * string limit (the loop refuses it as it grows). A pattern that cannot match empty, with no one
 * counting, is replaced by the literal text itself, with no call back per match (D378).
 */
function replaceNative(c: CompiledPattern, subj: Subject, literal: string, s: string, counter: Counter): string | null {
  const view = subj.view;
  // Each match takes at least one character: the result is at most this long.
  if (view.length * Math.max(1, literal.length) > MAX_STRING_LENGTH) return null;
  // V8 finds every match in one native call before the first callback (HH-08): long subjects
  // take the loop, which the CPU timeout can stop between matches
  if (view.length > NATIVE_REPLACE_MAX) return null;
  if (counter === null && !c.nullable) {
    // `$` is the only special character of a replacement text; `$$` writes one.
    const out = view.replace(regexpFor(c, 'search', false), literal.replaceAll('$', '$$$$'));
    return out === view ? s : subj.text(out);
  }
  let n = 0;
  let out: string;
  try {
    out = view.replace(regexpFor(c, 'search', false), (m: string) => {
      if (m.length === 0) throw EMPTY_MATCH;
      n++;
      return literal;
    });
  } catch (e) {
    if (e === EMPTY_MATCH) return null;
    throw e;
  }
  if (counter) counter.n += n;
  return n === 0 ? s : subj.text(out);
}

// ---- preg_split ----

export function pregSplit(
  pattern: Value,
  subject: Value,
  limit: Value = -1,
  flags: Value = 0,
  warn: Warn = () => {},
): PhpArray | false {
  const fn = 'preg_split';
  const pat = strArg(pattern, fn, 1, 'pattern');
  const s = strArg(subject, fn, 2, 'subject');
  let lim = limit === null ? -1 : intArg(limit, fn, 3, 'limit');
  const f = int32Arg(flags, fn, 4, 'flags');
  const c = compileOrWarn(pat, fn, warn);
  if (!c) return false;
  const noEmpty = (f & PREG_SPLIT_NO_EMPTY) !== 0;
  const delimCapture = (f & PREG_SPLIT_DELIM_CAPTURE) !== 0;
  const offsetCapture = (f & PREG_SPLIT_OFFSET_CAPTURE) !== 0;
  const subj = subjectFor(c, s);
  if (!subj) return false;
  const out = PhpArray.empty();
  const add = (start: number, end: number) => {
    checkArrayLength(out.size + 1, fn);
    const text = subj.slice(start, end);
    out.push(offsetCapture ? PhpArray.fromList([text, subj.byteOffset(start)]) : text);
  };
  if (lim === 0) lim = -1;
  let lastEnd = 0;
  if (lim === -1 || lim > 1) {
    eachMatch(c, subj, 0, delimCapture && offsetCapture, (m) => {
      if (!noEmpty || m.start !== lastEnd) {
        add(lastEnd, m.start);
        if (lim !== -1) lim--;
      }
      if (delimCapture) {
        for (let i = 1; i < m.count; i++) {
          const g = m.groups[i];
          if (noEmpty && (g === undefined || g === '')) continue;
          if (g === undefined) {
            out.push(offsetCapture ? PhpArray.fromList(['', -1]) : '');
          } else {
            const start = offsetCapture ? m.starts![i] : 0;
            checkArrayLength(out.size + 1, fn);
            out.push(offsetCapture ? PhpArray.fromList([subj.text(g), subj.byteOffset(start)]) : subj.text(g));
          }
        }
      }
      lastEnd = m.end;
      // Once the limit is reached PHP searches no further, not even the retry after an empty match.
      return lim === -1 || lim > 1;
    });
  }
  if (!noEmpty || lastEnd < subj.view.length) add(lastEnd, subj.view.length);
  return out;
}

// ---- preg_quote / preg_grep ----

const QUOTED = new Set('.\\+*?[^]$(){}=!<>|:-#'.split(''));

export function pregQuote(str: Value, delimiter: Value = null): string {
  const s = toBinary(strArg(str, 'preg_quote', 1, 'str'));
  const d = delimiter === null ? '' : toBinary(strArg(delimiter, 'preg_quote', 2, 'delimiter'));
  const delim = d === '' ? null : d[0];
  let out = '';
  for (const ch of s) {
    if (ch === '\0') out += '\\000';
    else if (QUOTED.has(ch) || ch === delim) out += '\\' + ch;
    else out += ch;
  }
  checkStringLength(out.length, 'preg_quote');
  return fromBinary(out);
}

export function pregGrep(pattern: Value, input: Value, flags: Value = 0, warn: Warn = () => {}): PhpArray | false {
  const fn = 'preg_grep';
  const pat = strArg(pattern, fn, 1, 'pattern');
  const arr = arrayArg(input, fn, 2);
  const invert = (int32Arg(flags, fn, 3, 'flags') & PREG_GREP_INVERT) !== 0;
  const c = compileOrWarn(pat, fn, warn);
  if (!c) return false;
  const out = PhpArray.empty();
  for (const [k, v] of arr.entries()) {
    const subj = subjectFor(c, elementString(v, warn));
    if (!subj) break;
    const hit = execAt(c, subj, 0, false) !== null;
    if (hit !== invert) out.set(k, v);
  }
  return out;
}
