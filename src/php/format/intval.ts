/** PHP intval(), floatval(), boolval(), strval() and max()/min(). */
import { PhpArray, PhpFloat, type PhpInt, type Value } from '../../value/value.js';
import { PhpTypeError, toBool, toInt64 } from '../../value/convert.js';
import { compare } from '../../value/compare.js';
import { INT_MAX as LONG_MAX, INT_MIN as LONG_MIN, intOf } from '../../value/int64.js';
import { int64Arg, low32, typeError } from '../args.js';
import { zvalGetDouble, zvalGetString } from '../zval.js';

/** C strtol(): whitespace, sign, an optional 0x / 0 prefix for bases 16 / 0, saturating. */
function strtol(s: string, base: number): bigint {
  const m = /^[ \t\n\v\f\r]*([+-]?)(.*)$/s.exec(s)!;
  let rest = m[2];
  if ((base === 0 || base === 16) && /^0[xX][0-9a-fA-F]/.test(rest)) {
    rest = rest.slice(2);
    base = 16;
  } else if (base === 0) {
    base = rest.startsWith('0') ? 8 : 10;
  }
  if (base < 2 || base > 36) return 0n;
  let v = 0n;
  const b = BigInt(base);
  for (const ch of rest) {
    const d = parseInt(ch, 36);
    if (Number.isNaN(d) || d >= base) break;
    v = v * b + BigInt(d);
    if (v > LONG_MAX + 1n) break;
  }
  if (m[1] === '-') v = -v;
  return v > LONG_MAX ? LONG_MAX : v < LONG_MIN ? LONG_MIN : v;
}

export function phpIntval(v: Value, base: Value = 10): PhpInt {
  const b = int64Arg(base, 'intval', 2, 'base');
  if (typeof v !== 'string' || b === 10) return toInt64(v);
  // PHP reads a "0b" prefix (after an optional sign) itself before handing over to strtol
  const pre = /^([+-]?)0[bB](.*)$/s.exec(v);
  if (pre && (b === 0 || b === 2)) return intOf(strtol(pre[1] + pre[2], 2));
  // strtol takes the base as a C int: PHP_INT_MIN is base 0 (D327).
  return intOf(strtol(v, low32(b)));
}

export function phpFloatval(v: Value): number | PhpFloat {
  const d = zvalGetDouble(v);
  return Number.isInteger(d) ? new PhpFloat(d) : d;
}

export function phpBoolval(v: Value): boolean {
  return toBool(v);
}

export function phpStrval(v: Value): string {
  return zvalGetString(v);
}

/**
 * The arguments' form compares each value with the best so far, the array form the best so far
 * with each value, as PHP 8.2 does: the two differ for arrays that cannot be compared (a key of
 * the left one missing from the right), which compare as greater whichever side they are on.
 */
function extreme(fn: 'max' | 'min', values: Value[], arrayForm: boolean): Value {
  const better = fn === 'max' ? (c: number) => c > 0 : (c: number) => c < 0;
  let best = values[0];
  for (let k = 1; k < values.length; k++) {
    const c = arrayForm ? -compare(best, values[k]) : compare(values[k], best);
    if (better(c)) best = values[k];
  }
  return best;
}

/** max(array) or max(a, b, ...): the first of equal values wins, PHP 8 comparison. */
export function phpMaxMin(fn: 'max' | 'min', args: Value[]): Value {
  if (args.length === 1) {
    const a = args[0];
    if (!(a instanceof PhpArray)) throw typeError(fn, 1, 'value', 'array', a);
    if (a.size === 0) throw new PhpTypeError(`${fn}(): Argument #1 ($value) must contain at least one element`);
    return extreme(fn, a.values(), true);
  }
  return extreme(fn, args, false);
}
