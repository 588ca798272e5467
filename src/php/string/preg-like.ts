/**
 * Small pieces of preg_* behaviour that Smarty 2's regex-based modifiers rely on, for
 * patterns without capture groups.
 */
import { PhpArray, type Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { strArg } from '../args.js';

/**
 * A preg_replace replacement string as a function of the match: `$0`, `\0`, `${0}` insert
 * the match, other group references (there are no groups) insert nothing.
 */
export function replacementFor(rep: string): (match: string) => string {
  if (!/[\\$]/.test(rep)) return () => rep;
  const parts: (string | number)[] = [];
  let lit = '';
  for (let i = 0; i < rep.length;) {
    const m = /^(?:\$\{([0-9]{1,2})\}|[\\$]([0-9]{1,2}))/.exec(rep.slice(i, i + 5));
    if (m && i + 1 < rep.length) {
      parts.push(lit, Number(m[1] ?? m[2]));
      lit = '';
      i += m[0].length;
    } else lit += rep[i++];
  }
  parts.push(lit);
  return (match) => parts.map((p) => (typeof p === 'string' ? p : p === 0 ? match : '')).join('');
}

/**
 * preg_replace's subject: a string, or an array whose elements are each replaced (keys kept,
 * elements converted to strings).
 */
export function pregSubject(subject: Value, fn: string, f: (s: string) => string): Value {
  if (subject instanceof PhpArray) {
    const out = PhpArray.empty();
    for (const [k, v] of subject.entries()) out.set(k, f(toStr(v)));
    return out;
  }
  return f(strArg(subject, fn, 3, 'subject'));
}
