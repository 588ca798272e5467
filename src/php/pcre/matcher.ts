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

export function execAt(c: CompiledPattern, subj: Subject, from: number, retry: boolean, indices: boolean): Match | null {
  if (retry && c.retrySource === null) return null;
  const re = regexpFor(c, retry ? 'retry' : 'search', indices);
  re.lastIndex = from;
  const m = re.exec(subj.view);
  if (!m) return null;
  const map = retry ? c.retryIndex : c.jsIndex;
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

/** Successive matches from `from`, with PHP's empty-match rule. */
export function* allMatches(c: CompiledPattern, subj: Subject, from: number, indices: boolean): Generator<Match> {
  let m = execAt(c, subj, from, false, indices);
  while (m) {
    yield m;
    let next = m.end;
    if (m.end === m.start) {
      const again = execAt(c, subj, next, true, indices);
      if (again) {
        m = again;
        continue;
      }
      if (next >= subj.view.length) return;
      next = subj.nextIndex(next);
    }
    m = execAt(c, subj, next, false, indices);
  }
}
