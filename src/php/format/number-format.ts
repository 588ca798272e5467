/**
 * PHP 8.2 number_format(): round half away from zero (round()'s pre-rounding included),
 * print with "%.*F", then insert the separators. Separators are byte strings of any length
 * (multi-byte ones like '、' work), and a result that rounds to zero loses its minus sign
 * (number_format(-0.4) is "0").
 */
import type { Value } from '../../value/value.js';
import { floatArg, intArg, strArg } from '../args.js';
import { phpRoundValue } from './round.js';
import { fixedDigits } from '../../value/exact-decimal.js';
import { checkStringLength } from '../../value/limits.js';

/** spprintf caps the precision of %F: php_conv_fp keeps at most NDIG-2 = 318 decimals. */
const MAX_DECIMALS = 318;

function numberFormatValue(d: number, dec: number, decPoint: string, thousandsSep: string): string {
  let neg = false;
  if (d < 0) {
    neg = true;
    d = -d;
  }
  dec = Math.max(0, dec);
  d = phpRoundValue(d, dec);
  // "%.*F" prints these in lower case, and the sign was already dropped
  if (Number.isNaN(d)) return 'nan';
  if (!Number.isFinite(d)) return 'inf';
  const prec = Math.min(dec, MAX_DECIMALS);
  checkStringLength(dec, 'number_format');
  const digits = fixedDigits(d, prec);
  if (neg && d === 0) neg = false;
  const intPart = digits.slice(0, digits.length - prec);
  let fracPart = digits.slice(digits.length - prec);
  if (dec > prec) fracPart += '0'.repeat(dec - prec);
  let grouped = '';
  for (let i = intPart.length; i > 0; i -= 3) {
    const chunk = intPart.slice(Math.max(0, i - 3), i);
    grouped = i - 3 > 0 ? thousandsSep + chunk + grouped : chunk + grouped;
  }
  let out = grouped;
  if (dec > 0) out += decPoint + fracPart;
  return neg ? '-' + out : out;
}

/** number_format(num, decimals = 0, decimal_separator = ".", thousands_separator = ","). */
export function phpNumberFormat(
  num: Value,
  decimals: Value = 0,
  decimalSeparator: Value = '.',
  thousandsSeparator: Value = ',',
): string {
  // The common call, an integer and no decimals: rounding and "%.*F" leave its digits as they are.
  if (
    typeof num === 'number' &&
    decimals === 0 &&
    Number.isSafeInteger(num) &&
    (typeof thousandsSeparator === 'string' || thousandsSeparator == null)
  ) {
    return groupedInteger(num, thousandsSeparator ?? ',');
  }
  const d = floatArg(num, 'number_format', 1, 'num');
  const dec = intArg(decimals, 'number_format', 2, 'decimals');
  const dp =
    decimalSeparator === null || decimalSeparator === undefined
      ? '.'
      : strArg(decimalSeparator, 'number_format', 3, 'decimal_separator');
  const ts =
    thousandsSeparator === null || thousandsSeparator === undefined
      ? ','
      : strArg(thousandsSeparator, 'number_format', 4, 'thousands_separator');
  return numberFormatValue(d, dec, dp, ts);
}

/** The digits of integer `n` with `sep` between groups of three (-0 prints "0", as above). */
function groupedInteger(n: number, sep: string): string {
  const digits = String(n < 0 ? -n : n);
  let k = digits.length % 3 || 3;
  let out = digits.slice(0, k);
  for (; k < digits.length; k += 3) out += sep + digits.slice(k, k + 3);
  return n < 0 ? '-' + out : out;
}
