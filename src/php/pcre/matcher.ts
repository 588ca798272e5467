/**
 * Runs a compiled pattern the way php_pcre.c drives pcre2_match: single matches, and the
 * global loop shared by preg_match_all, preg_replace and preg_split (after an empty match,
 * retry a non-empty match anchored at the same place, else step one character).
 */
import type { Subject } from './subject.js';
import { type CompiledPattern, type Rewrite, regexpFor } from './translate.js';

export interface Match {
  start: number;
  end: number;
  /** View text of each PCRE group (undefined when unset), index 0 = whole match. */
  groups: (string | undefined)[];
  /** View index of each group's start (-1 when unset); only when indices were asked for. */
  starts: number[] | null;
  /** PCRE's return code: highest set group + 1. */
  count: number;
}

/**
 * The RegExp's match at `from`: the search, or (retry) a non-empty match anchored there. For
 * patterns with \K, branch reset groups or a \G that does not anchor them (`c.ext`), PCRE's
 * match rewritten from the RegExp's: its groups numbered as PCRE numbers them, its start moved
 * by \K or past the prefix that searched for it.
 */
function rawAt(
  c: CompiledPattern,
  subj: Subject,
  from: number,
  retry: boolean,
  indices: boolean,
): RegExpExecArray | null {
  if (retry && c.retrySource === null) return null;
  const view = subj.view;
  let at = from;
  if (!retry && c.shift) {
    // `(?<=\G.{n})`: the match starts n characters after the start offset (never, with A).
    if (c.anchored) return null;
    for (let k = 0; k < c.shift; k++) {
      if (at >= view.length) return null;
      at = subj.nextIndex(at);
    }
  }
  const rewrite = c.ext && (retry ? c.ext.retry : c.ext.search);
  const re = regexpFor(c, retry ? 'retry' : 'search', indices || (rewrite !== null && rewrite.keeps.length > 0));
  re.lastIndex = at;
  const m = re.exec(view);
  return m && rewrite ? rewriteMatch(c, rewrite, m, indices) : m;
}

function rewriteMatch(c: CompiledPattern, r: Rewrite, m: RegExpExecArray, indices: boolean): RegExpExecArray {
  const end = m.index + m[0].length;
  let start = r.wrap && m[r.wrap] !== undefined ? end - m[r.wrap].length : m.index;
  // Outside lookarounds the match only moves forward: the last \K passed is the furthest set.
  for (const k of r.keeps) {
    const at = m.indices![k];
    if (at && at[0] > start) start = at[0];
  }
  const out = [m.input.slice(start, end)] as unknown as RegExpExecArray;
  out.index = start;
  out.input = m.input;
  const where: ([number, number] | undefined)[] | null = indices ? [[start, end]] : null;
  for (let i = 1; i <= c.groupCount; i++) {
    let value: string | undefined;
    let span: [number, number] | undefined;
    for (const j of r.groups[i]) {
      if (m[j] === undefined) continue;
      value = m[j];
      if (where) span = m.indices![j];
      break;
    }
    out.push(value as string);
    if (where) where.push(span);
  }
  // An unset group's entry is undefined, as in the RegExp's own indices.
  if (where) out.indices = where as RegExpIndicesArray;
  return out;
}

/** A raw match as PCRE groups; `map` takes PCRE group numbers to the RegExp's. */
function toMatch(c: CompiledPattern, m: RegExpExecArray, map: readonly number[], indices: boolean): Match {
  const groups: (string | undefined)[] = [m[0]];
  const starts = indices ? [m.index] : null;
  let count = 1;
  for (let i = 1; i <= c.groupCount; i++) {
    const j = map[i];
    const v = m[j];
    groups.push(v);
    if (v !== undefined) count = i + 1;
    if (starts) starts.push(v === undefined ? -1 : m.indices![j]![0]);
  }
  return { start: m.index, end: m.index + m[0].length, groups, starts, count };
}

/** The first match at or after `from` (preg_match, preg_grep). */
export function execAt(c: CompiledPattern, subj: Subject, from: number, indices: boolean): Match | null {
  const m = rawAt(c, subj, from, false, indices);
  return m && toMatch(c, m, c.jsIndex, indices);
}

/**
 * Successive matches from `from`, with PHP's empty-match rule: `each` gets the RegExp's match
 * and the map from PCRE group numbers to its groups, and returns false to stop before the next
 * search. preg_replace reads the raw match: a Match object per match, and a generator to hand
 * them out, cost it ~15% per call over short texts with many matches.
 */
export function eachRawMatch(
  c: CompiledPattern,
  subj: Subject,
  from: number,
  indices: boolean,
  each: (m: RegExpExecArray, map: readonly number[]) => boolean,
): void {
  const view = subj.view;
  let retry = false;
  let m = rawAt(c, subj, from, false, indices);
  while (m) {
    if (!each(m, retry ? c.retryIndex : c.jsIndex)) return;
    let next = m.index + m[0].length;
    if (m[0].length === 0) {
      const again = rawAt(c, subj, next, true, indices);
      if (again) {
        m = again;
        retry = true;
        continue;
      }
      if (next >= view.length) return;
      next = subj.nextIndex(next);
    }
    m = rawAt(c, subj, next, false, indices);
    retry = false;
  }
}

/** The same walk as Match objects (preg_match_all, preg_split). */
export function eachMatch(
  c: CompiledPattern,
  subj: Subject,
  from: number,
  indices: boolean,
  each: (m: Match) => boolean,
): void {
  eachRawMatch(c, subj, from, indices, (m, map) => each(toMatch(c, m, map, indices)));
}
