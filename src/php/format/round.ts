/**
 * PHP 8.2 round(), floor(), ceil(), abs(): a port of ext/standard/math.c (PHP 8.0–8.2).
 * round() rounds half away from zero after "pre-rounding" the value to 15 significant
 * digits, so that round(1.005, 2) is 1.01 although 1.005 is stored as 1.00499999...
 */
import { PhpFloat, type PhpNumber, type Value, num as asDouble } from '../../value/value.js';
import { INT_MIN } from '../../value/int64.js';
import { intArg, numberArg } from '../args.js';

/** php_intpow10: exact table up to 1e22, else pow() (correctly rounded via the parser). */
function intpow10(power: number): number {
  return Number(`1e${power}`);
}

function intlog10abs(value: number): number {
  return Math.floor(Math.log10(Math.abs(value)));
}

/** php_round_helper for PHP_ROUND_HALF_UP. */
function roundHelper(value: number): number {
  return value >= 0 ? Math.floor(value + 0.5) : Math.ceil(value - 0.5);
}

/** _php_math_round(value, places, PHP_ROUND_HALF_UP). */
export function phpRoundValue(value: number, places: number): number {
  if (!Number.isFinite(value) || value === 0) return value;
  places = Math.max(places, -2147483647);
  const precisionPlaces = 14 - intlog10abs(value);
  const f1 = intpow10(Math.abs(places));
  let tmp: number;
  if (precisionPlaces > places && precisionPlaces - 15 < places) {
    const f2 = intpow10(Math.abs(precisionPlaces));
    tmp = precisionPlaces >= 0 ? value * f2 : value / f2;
    // pre-round to 15 significant digits, then move the point to `places`
    tmp = roundHelper(tmp);
    const shift = Math.abs(places - precisionPlaces);
    tmp = tmp / intpow10(shift);
  } else {
    tmp = places >= 0 ? value * f1 : value / f1;
    // beyond the precision of a double: rounding is pointless
    if (Math.abs(tmp) >= 1e15) return value;
  }
  tmp = roundHelper(tmp);
  if (Math.abs(places) < 23) {
    tmp = places > 0 ? tmp / f1 : tmp * f1;
  } else {
    // PHP prints "%15fe%d" and parses it back; for such tiny or huge scales the result of
    // that round trip is the correctly rounded value of tmp·10^-places.
    const back = Number(`${tmp.toFixed(6)}e${-places}`);
    tmp = Number.isFinite(back) ? back : value;
  }
  return tmp;
}

/** round(num, precision): always a float. */
export function phpRound(num: Value, precision: Value = 0): number | PhpFloat {
  const n = numberArg(num, 'round', 1, 'num');
  const places = intArg(precision, 'round', 2, 'precision');
  if (typeof n !== 'object' && Number.isInteger(asDouble(n)) && places >= 0) return new PhpFloat(asDouble(n));
  const r = phpRoundValue(asDouble(n), places);
  return Number.isInteger(r) ? new PhpFloat(r) : r;
}

function asFloat(x: number): number | PhpFloat {
  return Number.isInteger(x) ? new PhpFloat(x) : x;
}

/** floor(num): always a float (ints are converted). */
export function phpFloor(num: Value): number | PhpFloat {
  const n = numberArg(num, 'floor', 1, 'num');
  return asFloat(Math.floor(asDouble(n)));
}

export function phpCeil(num: Value): number | PhpFloat {
  const n = numberArg(num, 'ceil', 1, 'num');
  // Math.ceil(-0.5) is -0, as C's ceil() gives.
  return asFloat(Math.ceil(asDouble(n)));
}

/** abs(num): int stays int (except PHP_INT_MIN, which becomes a float). */
export function phpAbs(num: Value): PhpNumber {
  const n = numberArg(num, 'abs', 1, 'num');
  if (n instanceof PhpFloat) return new PhpFloat(Math.abs(n.value));
  if (typeof n === 'bigint') return n === INT_MIN ? new PhpFloat(2 ** 63) : n < 0n ? -n : n;
  return Math.abs(n);
}
