/**
 * Floats as json_encode (and var_export, serialize) print them with serialize_precision=-1:
 * the shortest digits that round-trip, laid out by php_gcvt with 17 as the precision:
 * `0.1`, `1.0e+25`, `1.0e-5`, `-0`.
 */
export function jsonFloat(n: number, zeroFraction: boolean): string {
  if (n === 0) {
    const z = Object.is(n, -0) ? '-0' : '0';
    return zeroFraction ? `${z}.0` : z;
  }
  const abs = Math.abs(n);
  // Where php_gcvt prints fixed notation (a decimal point at -3..17), JavaScript prints the same
  // shortest digits the same way.
  if (abs >= 1e-4 && abs < 1e17) {
    const s = String(n);
    return zeroFraction && Number.isInteger(n) ? s + '.0' : s;
  }
  const sign = n < 0 ? '-' : '';
  const [mant, exp] = abs.toExponential().split('e');
  const digits = mant.replace('.', '');
  // zend_dtoa's decpt: the value is 0.DIGITS x 10^decpt
  const decpt = Number(exp) + 1;
  let out: string;
  if (decpt < 0 ? decpt < -3 : decpt > 17) {
    const e = decpt - 1;
    out = `${digits[0]}.${digits.length > 1 ? digits.slice(1) : '0'}e${e < 0 ? '-' : '+'}${Math.abs(e)}`;
  } else if (decpt <= 0) {
    out = `0.${'0'.repeat(-decpt)}${digits}`;
  } else if (digits.length <= decpt) {
    out = digits + '0'.repeat(decpt - digits.length);
    if (zeroFraction) out += '.0';
  } else {
    out = `${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  return sign + out;
}
