/**
 * Runs a compiled pattern the way php_pcre.c drives pcre2_match: single matches, and the
 * global loop shared by preg_match_all, preg_replace and preg_split (after an empty match,
 * retry a non-empty match anchored at the same place, else step one character).
 */
import type { Subject } from './subject.js';
import { type CompiledPattern, regexpFor } from './translate.js';

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

/** The RegExp's match at `from`: the search, or (retry) a non-empty match anchored there. */
function rawAt(c: CompiledPattern, view: string, from: number, retry: boolean, indices: boolean): RegExpExecArray | null {
  if (retry && c.retrySource === null) return null;
  const re = regexpFor(c, retry ? 'retry' : 'search', indices);
  re.lastIndex = from;
  return re.exec(view);
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
  const m = rawAt(c, subj.view, from, false, indices);
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
  let m = rawAt(c, view, from, false, indices);
  while (m) {
    if (!each(m, retry ? c.retryIndex : c.jsIndex)) return;
    let next = m.index + m[0].length;
    if (m[0].length === 0) {
      const again = rawAt(c, view, next, true, indices);
      if (again) {
        m = again;
        retry = true;
        continue;
      }
      if (next >= view.length) return;
      next = subj.nextIndex(next);
    }
    m = rawAt(c, view, next, false, indices);
    retry = false;
  }
}

/** The same walk as Match objects (preg_match_all, preg_split). */
export function eachMatch(c: CompiledPattern, subj: Subject, from: number, indices: boolean, each: (m: Match) => boolean): void {
  eachRawMatch(c, subj, from, indices, (m, map) => each(toMatch(c, m, map, indices)));
}
