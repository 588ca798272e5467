/**
 * range() as PHP 8.2 has it (before 8.3's rewrite): character ranges for two non-numeric
 * strings, float ranges when any bound or the step is a float, int ranges otherwise.
 */
import { PhpArray, type Value, float, isFloat } from '../../value/value.js';
import { PhpTypeError, isNumericStr, toFloatLoose, toInt64 } from '../../value/convert.js';
import { bigOf, intOf } from '../../value/int64.js';
import { checkArrayLength } from '../../value/limits.js';
import { fromBinary, toBinary } from '../../value/bytes.js';

function rangeError(): never {
  throw new PhpTypeError('range(): Argument #3 ($step) must not exceed the specified range');
}

function isDoubleStr(s: string): boolean {
  return isNumericStr(s) && !/^[ \t\n\r\v\f]*[+-]?[0-9]+[ \t\n\r\v\f]*$/.test(s);
}

function isLongStr(s: string): boolean {
  return isNumericStr(s) && !isDoubleStr(s);
}

/** PHP rounds the element count half up before allocating. */
function size(span: number, step: number): number {
  const n = Math.floor(span / step + 1 + 0.5);
  checkArrayLength(n, 'range');
  return n;
}

/** The step as PHP 8.2 takes an `int|float` argument: null is 0, a string must be numeric. */
function checkStep(step: Value): Value {
  if (step === null || step === undefined) return 0;
  if (typeof step === 'string' && !isNumericStr(step))
    throw new PhpTypeError('range(): Argument #3 ($step) must be of type int|float, string given');
  return step;
}

export function range(start: Value, end: Value, stepValue: Value = 1): PhpArray {
  const stepArg = checkStep(stepValue);
  const stepIsDouble = isFloat(stepArg) || (typeof stepArg === 'string' && isDoubleStr(stepArg));
  let step = toFloatLoose(stepArg);
  if (step < 0) step = -step;

  if (typeof start === 'string' && typeof end === 'string' && start.length > 0 && end.length > 0) {
    if (isDoubleStr(start) || isDoubleStr(end) || stepIsDouble) return floatRange(start, end, step);
    if (isLongStr(start) || isLongStr(end)) return intRange(start, end, step);
    return charRange(toBinary(start).charCodeAt(0), toBinary(end).charCodeAt(0), Math.trunc(step));
  }
  if (isFloat(start) || isFloat(end) || stepIsDouble) return floatRange(start, end, step);
  return intRange(start, end, step);
}

function charRange(low: number, high: number, step: number): PhpArray {
  const out: Value[] = [];
  const ch = (c: number) => fromBinary(String.fromCharCode(c));
  if (low > high) {
    if (low - high < step || step <= 0) rangeError();
    for (; low >= high; low -= step) {
      out.push(ch(low));
      if (low - step < 0) break;
    }
  } else if (high > low) {
    if (high - low < step || step <= 0) rangeError();
    for (; low <= high; low += step) {
      out.push(ch(low));
      if (low + step > 255) break;
    }
  } else {
    out.push(ch(low));
  }
  return PhpArray.fromList(out);
}

function floatRange(startV: Value, endV: Value, step: number): PhpArray {
  const low = toFloatLoose(startV);
  const high = toFloatLoose(endV);
  if (!Number.isFinite(low) || !Number.isFinite(high)) throw new PhpTypeError('range(): Invalid range supplied');
  const out: Value[] = [];
  if (low > high) {
    if (low - high < step || step <= 0) rangeError();
    const n = size(low - high, step);
    for (let i = 0, el = low; i < n && el >= high; i++, el = low - i * step) out.push(float(el));
  } else if (high > low) {
    if (high - low < step || step <= 0) rangeError();
    const n = size(high - low, step);
    for (let i = 0, el = low; i < n && el <= high; i++, el = low + i * step) out.push(float(el));
  } else {
    out.push(float(low));
  }
  return PhpArray.fromList(out);
}

function intRange(startV: Value, endV: Value, step: number): PhpArray {
  const low = toInt64(startV);
  const high = toInt64(endV);
  // Past 2^53 (a bound, or the span between two safe bounds) the steps are counted in bigints.
  if (typeof low === 'bigint' || typeof high === 'bigint' || !Number.isSafeInteger(high - low))
    return bigIntRange(bigOf(low), bigOf(high), step);
  if (step <= 0) rangeError();
  const lstep = Math.trunc(step);
  if (lstep <= 0) rangeError();
  const out: Value[] = [];
  if (low !== high) {
    const span = Math.abs(high - low);
    if (span < lstep) rangeError();
    const n = Math.floor(span / lstep) + 1;
    checkArrayLength(n, 'range');
    const dir = low > high ? -1 : 1;
    for (let i = 0; i < n; i++) out.push(low + dir * i * lstep);
  } else {
    out.push(low);
  }
  return PhpArray.fromList(out);
}

/** intRange where a bound is past 2^53: the same steps in bigints, each element an int in its one form. */
function bigIntRange(low: bigint, high: bigint, step: number): PhpArray {
  if (!(step >= 1)) rangeError();
  const lstep = BigInt(Math.trunc(Math.min(step, 2 ** 64)));
  const span = low > high ? low - high : high - low;
  if (span !== 0n && span < lstep) rangeError();
  const n = span / lstep + 1n;
  checkArrayLength(Number(n), 'range');
  const dir = low > high ? -lstep : lstep;
  const out: Value[] = [];
  for (let i = 0n; i < n; i++) out.push(intOf(low + i * dir));
  return PhpArray.fromList(out);
}
