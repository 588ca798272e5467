/**
 * Smarty 2.6's truncate algorithm, shared by truncate (bytes) and the platform's mb_truncate
 * (characters): the PHP body is
 *
 *   if ($length == 0) return '';
 *   if (strlen($string) > $length) {
 *     $length -= min($length, strlen($etc));
 *     if (!$break_words && !$middle)
 *       $string = preg_replace('/\s+?(\S+)?$/', '', substr($string, 0, $length+1));
 *     if (!$middle) return substr($string, 0, $length) . $etc;
 *     return substr($string, 0, $length/2) . $etc . substr($string, -$length/2);
 *   }
 *   return $string;
 */
import { type Value, num } from '../../runtime/value.js';
import { toBool, toNumber } from '../../runtime/convert.js';
import { compare, looseEq } from '../../runtime/compare.js';

export interface Measure {
  len(s: string): number;
  sub(s: string, start: number, length?: number): string;
}

// PCRE's `$` (no D flag) also matches before a final newline; `\s` is ASCII.
const LAST_WORD = /[ \t\n\v\f\r]+?([^ \t\n\v\f\r]+)?(?=\n?$)/g;

/** The truncated string, or undefined when the input is returned as it is (not even converted). */
export function truncateWith(m: Measure, s: string, length: Value, etc: string, breakWords: Value, middle: Value): string | undefined {
  if (looseEq(length, 0)) return '';
  const n = m.len(s);
  if (compare(n, length) <= 0) return undefined;
  const lenNum = num(toNumber(length, '-'));
  let L = lenNum - Math.min(lenNum, m.len(etc));
  L = Math.trunc(L); // substr() takes an int
  if (!toBool(breakWords) && !toBool(middle)) s = m.sub(s, 0, L + 1).replace(LAST_WORD, '');
  if (!toBool(middle)) return m.sub(s, 0, L) + etc;
  const half = Math.trunc(L / 2);
  return m.sub(s, 0, half) + etc + m.sub(s, -half);
}
