/**
 * How PHP 8.2 turns values into the C types its functions work with once they hold them:
 * zval_get_long / zval_get_double / zval_get_string (used inside sprintf, intval, floatval,
 * filter_var...). Unlike parameter parsing (args.ts) these never fail on a type.
 *
 * zval_get_long returns a bigint, whatever the size (sprintf's %d/%u/%x work on every bit of a
 * 64-bit value); the (int) cast itself is value/convert.ts's toInt64.
 */
import { PhpObject, type Value } from '../value/value.js';
import { PhpTypeError, toFloatLoose, toInt64, toStr } from '../value/convert.js';

/** zval_get_long(), as a 64-bit bigint. */
export function zvalGetLong(v: Value): bigint {
  const i = toInt64(v);
  return typeof i === 'bigint' ? i : BigInt(i);
}

/** zval_get_double(). */
export function zvalGetDouble(v: Value): number {
  return toFloatLoose(v);
}

/** zval_get_string(): like echo, but objects without __toString are an Error. */
export function zvalGetString(v: Value): string {
  if (v instanceof PhpObject) throw new PhpTypeError('Object of class stdClass could not be converted to string');
  return toStr(v);
}
