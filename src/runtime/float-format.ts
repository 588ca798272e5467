/**
 * PHP's float-to-string conversion with `precision=14` (echo, string concatenation):
 * `%.14G`-like, but PHP's own shape: `1.0E+15`, `1.0E-5`, `-0`, `INF`, `NAN`.
 * (zend_gcvt: exponential when the decimal exponent is < -4 or >= precision.)
 */
export function formatFloat(n: number, precision = 14): string {
  if (Number.isNaN(n)) return 'NAN';
  if (n === Infinity) return 'INF';
  if (n === -Infinity) return '-INF';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const neg = n < 0;
  const [digits, decpt] = significantDigits(Math.abs(n), precision);
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
 * The shortest digit string of at most `precision` significant digits that rounds `x`
 * correctly, without trailing zeros, and the position of the decimal point
 * (x = 0.DIGITS * 10^decpt), like zend_dtoa mode 2.
 */
export function significantDigits(x: number, precision: number): [string, number] {
  const s = x.toExponential(precision - 1); // d.ddddde±x, correctly rounded
  const e = s.indexOf('e');
  let digits = s.slice(0, e).replace('.', '');
  const exp = Number(s.slice(e + 1));
  digits = digits.replace(/0+$/, '');
  if (digits === '') digits = '0';
  return [digits, exp + 1];
}
