/**
 * PHP 8.2's filter_var() (ext/filter/filter.c: filter_var, php_filter_call, php_zval_filter)
 * over the filters of logical_filters.c and sanitizing_filters.c.
 *
 * Arguments: `options` is flags (int) or an array with "filter", "flags" and "options" keys.
 * Without FILTER_REQUIRE_ARRAY / FILTER_FORCE_ARRAY the value must be a scalar (an array
 * fails); with them arrays are filtered element by element, recursively. After the filter,
 * a failure result (false, or null under FILTER_NULL_ON_FAILURE) is replaced by
 * options["default"] when that is set, even when false was the filter's real answer.
 */
import { PhpArray, PhpObject, type Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { toBinary } from '../../value/bytes.js';
import { int32Arg, intArg, low32 } from '../args.js';
import { zvalGetLong } from '../zval.js';
import * as C from './constants.js';
import { validateBool, validateFloat, validateInt } from './numbers.js';
import { validateIp } from './ip.js';
import { validateDomain, validateMac, validateUrl } from './network.js';
import { validateEmail, validateRegexp } from './pattern.js';
import {
  addSlashes,
  encoded,
  fullSpecialChars,
  numberFloat,
  numberInt,
  sanitizeEmail,
  sanitizeUrl,
  specialChars,
  unsafeRaw,
} from './sanitize.js';
import { FAILED, type FilterFn, type FilterInput, filterValueError } from './options.js';

const FILTERS = new Map<number, FilterFn>([
  [C.FILTER_VALIDATE_INT, validateInt],
  [C.FILTER_VALIDATE_BOOL, validateBool],
  [C.FILTER_VALIDATE_FLOAT, validateFloat],
  [C.FILTER_VALIDATE_REGEXP, validateRegexp],
  [C.FILTER_VALIDATE_URL, validateUrl],
  [C.FILTER_VALIDATE_EMAIL, validateEmail],
  [C.FILTER_VALIDATE_IP, validateIp],
  [C.FILTER_VALIDATE_MAC, validateMac],
  [C.FILTER_VALIDATE_DOMAIN, validateDomain],
  [C.FILTER_SANITIZE_ENCODED, encoded],
  [C.FILTER_SANITIZE_SPECIAL_CHARS, specialChars],
  [C.FILTER_UNSAFE_RAW, unsafeRaw],
  [C.FILTER_SANITIZE_EMAIL, sanitizeEmail],
  [C.FILTER_SANITIZE_URL, sanitizeUrl],
  [C.FILTER_SANITIZE_NUMBER_INT, numberInt],
  [C.FILTER_SANITIZE_NUMBER_FLOAT, numberFloat],
  [C.FILTER_SANITIZE_FULL_SPECIAL_CHARS, fullSpecialChars],
  [C.FILTER_SANITIZE_ADD_SLASHES, addSlashes],
]);

/** PHP_FILTER_ID_EXISTS: the id ranges PHP accepts; ids in them without a filter use FILTER_DEFAULT. */
function filterIdExists(id: number): boolean {
  return (
    (id >= 0x100 && id <= C.FILTER_VALIDATE_DOMAIN) ||
    (id >= 0x200 && id <= C.FILTER_SANITIZE_ADD_SLASHES) ||
    id === C.FILTER_CALLBACK
  );
}

interface Call {
  filter: number;
  flags: number;
  options: PhpArray | null;
}

/** php_filter_call's reading of the third argument. */
function readArgs(filter: number, args: Value): Call {
  const scalarUnlessArray = (flags: number) =>
    flags & (C.FILTER_REQUIRE_ARRAY | C.FILTER_FORCE_ARRAY) ? flags : flags | C.FILTER_REQUIRE_SCALAR;
  // Flags are a zend_long whose bits PHP tests one by one, all below 2^31: the low 32 bits keep
  // them where a double would lose them past 2^53 (PHP_INT_MAX sets every flag, D327).
  if (!(args instanceof PhpArray)) {
    return { filter, flags: scalarUnlessArray(int32Arg(args, 'filter_var', 3, 'options')), options: null };
  }
  const call: Call = { filter, flags: C.FILTER_REQUIRE_SCALAR, options: null };
  if (args.has('filter')) call.filter = Number(zvalGetLong(args.get('filter')));
  const opts = args.has('options') ? args.get('options') : undefined;
  if (opts instanceof PhpArray) call.options = opts;
  if (args.has('flags')) call.flags = scalarUnlessArray(low32(zvalGetLong(args.get('flags'))));
  return call;
}

function failure(flags: number): Value {
  return flags & C.FILTER_NULL_ON_FAILURE ? null : false;
}

/** php_zval_filter: one scalar through one filter, then the "default" option. */
function filterScalar(value: Value, call: Call, warn: (m: string) => void): Value {
  if (call.filter === C.FILTER_CALLBACK) throw filterValueError('FILTER_CALLBACK is not available in templates');
  if (call.filter === C.FILTER_SANITIZE_STRING) {
    throw filterValueError(
      'FILTER_SANITIZE_STRING (deprecated since PHP 8.1) is not supported; use FILTER_SANITIZE_FULL_SPECIAL_CHARS',
    );
  }
  let result: Value;
  if (value instanceof PhpObject) {
    result = failure(call.flags); // stdClass has no __toString
  } else {
    const text = toStr(value);
    const input: FilterInput = { bin: toBinary(text), text, flags: call.flags, options: call.options, warn };
    const fn = FILTERS.get(call.filter) ?? unsafeRaw;
    const out = fn(input);
    result = out === FAILED ? failure(call.flags) : out;
  }
  const failed = call.flags & C.FILTER_NULL_ON_FAILURE ? result === null : result === false;
  if (failed && call.options?.has('default')) return call.options.get('default');
  return result;
}

function filterRecursive(value: Value, call: Call, warn: (m: string) => void): Value {
  if (!(value instanceof PhpArray)) return filterScalar(value, call, warn);
  return PhpArray.fromEntries(value.entries().map(([k, v]) => [k, filterRecursive(v, call, warn)]));
}

export function filterVar(value: Value, filterArg: Value, optionsArg: Value, warn: (m: string) => void): Value {
  const id = intArg(filterArg, 'filter_var', 2, 'filter');
  if (!filterIdExists(id)) {
    warn(`filter_var(): Unknown filter with ID ${id}`);
    return false;
  }
  if (
    optionsArg !== null &&
    optionsArg !== undefined &&
    typeof optionsArg === 'object' &&
    !(optionsArg instanceof PhpArray)
  ) {
    throw filterValueError('Argument #3 ($options) must be of type array|int, stdClass given');
  }
  const call = readArgs(id, optionsArg);
  if (value instanceof PhpArray) {
    if (call.flags & C.FILTER_REQUIRE_SCALAR) return failure(call.flags);
    return filterRecursive(value, call, warn);
  }
  if (call.flags & C.FILTER_REQUIRE_ARRAY) return failure(call.flags);
  const result = filterScalar(value, call, warn);
  return call.flags & C.FILTER_FORCE_ARRAY ? PhpArray.fromList([result]) : result;
}
