/**
 * What PHP prints for an oracle value (echo with precision=14), and whether json_encode can
 * write it, for the edge grid test. Written from PHP's rules, not with our own conversion, so
 * the grid checks the dialect's printing too.
 */
import type { Tagged } from '../../support/php-oracle.js';

/** `echo $v` in PHP 8.2 with precision=14: floats through zend_gcvt, true as 1, false/null empty. */
export function phpEcho(t: Tagged): Buffer {
  if (t === null || t === false) return Buffer.alloc(0);
  if (t === true) return Buffer.from('1');
  if ('int' in t) return Buffer.from(String(t.int));
  if ('str' in t) return Buffer.from(t.str, 'base64');
  if ('float' in t) return Buffer.from(gcvt14(t.float));
  throw new Error('arrays and objects do not print');
}

/** zend_gcvt(value, 14, '.', 'E'): 14 significant digits, exponent form outside 1e-4 .. 1e15. */
function gcvt14(repr: string): string {
  if (repr === 'NAN' || repr === 'INF' || repr === '-INF') return repr;
  const n = Number(repr);
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const sign = n < 0 ? '-' : '';
  const [mantissa, exp] = Math.abs(n).toExponential(13).split('e');
  const digits = mantissa.replace('.', '').replace(/0+$/, '');
  const decpt = Number(exp) + 1; // the value is 0.DIGITS × 10^decpt
  if (decpt < 0 ? decpt < -3 : decpt > 14) {
    const e = decpt - 1;
    return `${sign}${digits[0]}.${digits.length > 1 ? digits.slice(1) : '0'}E${e < 0 ? '-' : '+'}${Math.abs(e)}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (digits.length <= decpt) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** Whether json_encode writes the value: no INF/NAN, every string valid UTF-8. */
export function taggedJsonSafe(t: Tagged): boolean {
  if (t === null || typeof t !== 'object') return true;
  if ('int' in t) return true;
  if ('float' in t) return !['NAN', 'INF', '-INF'].includes(t.float);
  if ('str' in t) return validUtf8(Buffer.from(t.str, 'base64'));
  const entries: [string | number, Tagged][] = 'arr' in t ? t.arr : t.obj;
  return entries.every(([k, v]) => (typeof k !== 'string' || validUtf8(Buffer.from(k))) && taggedJsonSafe(v));
}

function validUtf8(b: Buffer): boolean {
  return Buffer.from(b.toString('utf8'), 'utf8').equals(b);
}
