/**
 * What a filter function receives (filter_private.h's PHP_INPUT_FILTER_PARAM_DECL): the
 * value as a byte string, the flags, the "options" array, and how to fail.
 */
import type { PhpArray, Value } from '../../value/value.js';
import { PhpTypeError } from '../../value/convert.js';
import { zvalGetDouble, zvalGetLong } from '../zval.js';

/** Returned by a filter when validation fails (RETURN_VALIDATION_FAILED). */
export const FAILED: unique symbol = Symbol('filter failed');
export type Filtered = Value | typeof FAILED;

export interface FilterInput {
  /** The value as a binary string (one char per byte, see value/bytes.ts toBinary). */
  bin: string;
  /** The same value as template text (for the pcre functions). */
  text: string;
  flags: number;
  options: PhpArray | null;
  warn: (message: string) => void;
}

export type FilterFn = (input: FilterInput) => Filtered;

function option(input: FilterInput, name: string): Value | undefined {
  if (!input.options || !input.options.has(name)) return undefined;
  return input.options.get(name);
}

/** FETCH_LONG_OPTION: any value, read with zval_get_long. */
export function longOption(input: FilterInput, name: string): bigint | undefined {
  const v = option(input, name);
  return v === undefined ? undefined : zvalGetLong(v);
}

/** FETCH_DOUBLE_OPTION: any value, read with zval_get_double. */
export function doubleOption(input: FilterInput, name: string): number | undefined {
  const v = option(input, name);
  return v === undefined ? undefined : zvalGetDouble(v);
}

/** FETCH_STRING_OPTION: only a string counts; other types are as if the option were absent. */
export function stringOption(input: FilterInput, name: string): string | undefined {
  const v = option(input, name);
  return typeof v === 'string' ? v : undefined;
}

/** zend_value_error raised inside a filter (PHP throws a ValueError). */
export function filterValueError(message: string): PhpTypeError {
  return new PhpTypeError(`filter_var(): ${message}`);
}

const TRIMMED = ' \t\r\v\n';

/** PHP_FILTER_TRIM_DEFAULT: strips space, tab, CR, VT and LF (not form feed) at both ends. */
export function filterTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && TRIMMED.includes(s[a])) a++;
  while (b > a && TRIMMED.includes(s[b - 1])) b--;
  return s.slice(a, b);
}
