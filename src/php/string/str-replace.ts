/** str_replace() with PHP 8's array forms (search list, replace list, subject list). */
import { PhpArray, type Value } from '../../value/value.js';
import { PhpTypeError, toStr } from '../../value/convert.js';
import { strArg } from '../args.js';
import { strReplaceOne } from './search.js';

function replaceInString(subject: string, search: Value, replace: Value): string {
  if (!(search instanceof PhpArray))
    return strReplaceOne(subject, strArg(search, 'str_replace', 1, 'search'), replace as string);
  const reps = replace instanceof PhpArray ? replace.values() : null;
  let out = subject;
  search.values().forEach((s, i) => {
    const r = reps ? (i < reps.length ? strArg(reps[i], 'str_replace', 2, 'replace') : '') : (replace as string);
    out = strReplaceOne(out, strArg(s, 'str_replace', 1, 'search'), r);
  });
  return out;
}

export function strReplace(search: Value, replace: Value, subject: Value): Value {
  if (!(search instanceof PhpArray) && replace instanceof PhpArray) {
    throw new PhpTypeError(
      'str_replace(): Argument #2 ($replace) must be of type string when argument #1 ($search) is a string',
    );
  }
  const rep = replace instanceof PhpArray ? replace : strArg(replace, 'str_replace', 2, 'replace');
  if (subject instanceof PhpArray) {
    const out = PhpArray.empty();
    for (const [k, v] of subject.entries()) {
      out.set(k, v instanceof PhpArray ? v : replaceInString(toStr(v), search, rep));
    }
    return out;
  }
  return replaceInString(strArg(subject, 'str_replace', 3, 'subject'), search, rep);
}
