/** implode/join as the platform's plugin accepts them: both argument orders. */
import { PhpArray, PhpFloat, type Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { implode } from '../../php/array/join.js';

const scalar = (v: Value) =>
  typeof v === 'string' ||
  typeof v === 'number' ||
  typeof v === 'bigint' ||
  typeof v === 'boolean' ||
  v instanceof PhpFloat;

export function joinModifier(input: Value, args: Value[]): Value {
  const arg = args[0] ?? null;
  if (arg instanceof PhpArray && scalar(input)) return implode(toStr(input), arg);
  if (input instanceof PhpArray && (arg === null || scalar(arg))) return implode(toStr(arg), input);
  if (input === null || input === undefined) return '';
  if (typeof input === 'string' && arg === null) return input;
  return null;
}
