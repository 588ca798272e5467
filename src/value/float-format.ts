/**
 * PHP's float-to-string conversion with `precision=14` (echo, string concatenation):
 * `%.14G`-like, but PHP's own shape: `1.0E+15`, `1.0E-5`, `-0`, `INF`, `NAN`.
 * (zend_gcvt: exponential when the decimal exponent is < -4 or >= precision.)
 */
import { significantDigitsEven } from './exact-decimal.js';

export function formatFloat(n: number, precision = 14): string {
  if (Number.isNaN(n)) return 'NAN';
  if (n === Infinity) return 'INF';
  if (n === -Infinity) return '-INF';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const neg = n < 0;
  // Most data (prices, ratios): String(n) is PHP's text already when 1e-4 <= |n| < 1e15 and it
  // has at most `precision` characters besides the sign. It is in fixed notation there (String's
  // exponent starts below 1e-6 and at 1e21), it then has at most that many digits, so they are the
  // rounded answer (shortestWithin below), and PHP's exponent needs a point past `precision` or
  // below 1e-4.
  const abs = neg ? -n : n;
  if (precision <= 15 && abs >= 1e-4 && abs < 1e15) {
    const s = String(n);
    if (s.length - (neg ? 1 : 0) <= precision) return s;
  }
  const [digits, decpt] = significantDigits(abs, precision);
  let out: string;
  if (decpt < -3 || decpt > precision) {
    // d.dddE+x, with at least one digit after the point
    const exp = decpt - 1;
    const mant = digits.length === 1 ? `${digits}.0` : `${digits[0]}.${digits.slice(1)}`;
    out = `${mant}E${exp < 0 ? '-' : '+'}${Math.abs(exp)}`;
  } else if (decpt <= 0) {
    out = `0.${'0'.repeat(-decpt)}${digits}`;
  } else if (digits.length <= decpt) {
    out = digits + '0'.repeat(decpt - digits.length);
  } else {
    out = `${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  return neg ? `-${out}` : out;
}

/**
 * At most `precision` significant digits of `x`, correctly rounded with exact ties to even
 * (zend_dtoa mode 2), without trailing zeros, and the position of the decimal point
 * (x = 0.DIGITS * 10^decpt). toExponential rounds exact ties up, so a tie goes to the exact
 * decimal arithmetic instead; ties are rare, so the common case stays cheap.
 */
export function significantDigits(x: number, precision: number): [string, number] {
  const short = shortestWithin(x, precision);
  if (short) return short;
  const wide = x.toExponential(precision + 2);
  const tail = wide.slice(precision + 1, wide.indexOf('e'));
  if (tail === '500') return significantDigitsEven(x, precision);
  const s = x.toExponential(precision - 1); // d.ddddde±x, correctly rounded
  const e = s.indexOf('e');
  let digits = s.slice(0, e).replace('.', '');
  const exp = Number(s.slice(e + 1));
  digits = digits.replace(/0+$/, '');
  if (digits === '') digits = '0';
  return [digits, exp + 1];
}

/**
 * x's shortest round-trip digits (String(x)) when there are at most `precision` of them: they are
 * then the rounded answer too. x is within half an ulp of them, and the grid of `precision`
 * significant digits is coarser than an ulp (precision <= 15), so rounding x to it gives them,
 * and no tie is possible (for normal doubles). Most data (prices, ratios, money) takes this path; null otherwise.
 */
function shortestWithin(x: number, precision: number): [string, number] | null {
  // A subnormal's ulp is not small against it: its shortest digits can be far from the rounding.
  if (precision > 15 || x < 2.2250738585072014e-308) return null;
  const s = String(x);
  const e = s.indexOf('e');
  const mant = e < 0 ? s : s.slice(0, e);
  const dot = mant.indexOf('.');
  let decpt = (dot < 0 ? mant.length : dot) + (e < 0 ? 0 : Number(s.slice(e + 1)));
  let digits = dot < 0 ? mant : mant.slice(0, dot) + mant.slice(dot + 1);
  let i = 0;
  while (i < digits.length - 1 && digits.charCodeAt(i) === 48) i++;
  decpt -= i;
  let j = digits.length;
  while (j > i + 1 && digits.charCodeAt(j - 1) === 48) j--;
  if (j - i > precision) return null;
  digits = digits.slice(i, j);
  return [digits, decpt];
}
