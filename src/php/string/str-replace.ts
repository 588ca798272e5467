/** str_replace() with PHP 8's array forms (search list, replace list, subject list). */
import { PhpArray, type Value } from '../../value/value.js';
import { PhpTypeError } from '../../value/convert.js';
import { strArg } from '../args.js';
import { strReplaceOne } from './search.js';

/**
 * An entry of an array argument as PHP 8.2 reads it: a nested array is the string "Array" (PHP
 * warns "Array to string conversion"), an object without a string form an error.
 */
function entryStr(v: Value, pos: number, name: string): string {
  return v instanceof PhpArray ? 'Array' : strArg(v, 'str_replace', pos, name);
}

function replaceInString(subject: string, search: Value, replace: Value): string {
  if (!(search instanceof PhpArray))
    return strReplaceOne(subject, strArg(search, 'str_replace', 1, 'search'), replace as string);
  const reps = replace instanceof PhpArray ? replace.values() : null;
  let out = subject;
  search.values().forEach((s, i) => {
    const r = reps ? (i < reps.length ? entryStr(reps[i], 2, 'replace') : '') : (replace as string);
    out = strReplaceOne(out, entryStr(s, 1, 'search'), r);
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
      out.set(k, replaceInString(entryStr(v, 3, 'subject'), search, rep));
    }
    return out;
  }
  return replaceInString(strArg(subject, 'str_replace', 3, 'subject'), search, rep);
}
