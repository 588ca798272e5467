/**
 * Exact decimal digits of a binary double, the way zend_dtoa produces them: the value is
 * taken exactly (as m·2^e) and rounded once, exact ties going to the even digit. JavaScript's
 * toFixed/toExponential round ties up instead, which is why PHP's `%.0f` of 2.5 ("2") cannot
 * be had from them.
 */

/** |x| as an exact fraction num/den (den a power of two). x must be finite. */
function exactFraction(x: number): [bigint, bigint] {
  x = Math.abs(x);
  if (x === 0) return [0n, 1n];
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp: number;
  if (biased === 0) {
    exp = -1074;
  } else {
    mant |= 1n << 52n;
    exp = biased - 1075;
  }
  return exp >= 0 ? [mant << BigInt(exp), 1n] : [mant, 1n << BigInt(-exp)];
}

const pow10Cache: bigint[] = [];
function pow10n(n: number): bigint {
  if (n < 64) return (pow10Cache[n] ??= 10n ** BigInt(n));
  return 10n ** BigInt(n);
}

/** num/den rounded to an integer, ties to even. */
function divRoundEven(num: bigint, den: bigint): bigint {
  const q = num / den;
  const r2 = (num % den) * 2n;
  if (r2 > den || (r2 === den && (q & 1n) === 1n)) return q + 1n;
  return q;
}

/** round(|x| · 10^scale) exactly, ties to even (scale may be negative). */
function scaledRound(x: number, scale: number): bigint {
  const [num, den] = exactFraction(x);
  return scale >= 0 ? divRoundEven(num * pow10n(scale), den) : divRoundEven(num, den * pow10n(-scale));
}

/**
 * |x| with exactly `frac` digits after the point, as a digit string without the point
 * (at least frac+1 digits): `fixedDigits(2.5, 0)` = "2", `fixedDigits(0.05, 2)` = "005".
 */
export function fixedDigits(x: number, frac: number): string {
  const a = Math.abs(x);
  // toFixed rounds the exact value too, and differs only on an exact tie, which it rounds up.
  // |x|·10^frac is a tie only when |x|·2^(frac+1) is an integer and |x|·2^frac is not (x is
  // k/2^(frac+1) with k odd, so x·10^frac = k·5^frac/2). Past 1e21 toFixed writes an exponent.
  if (frac <= 100 && a < 1e21 && !(Number.isInteger(a * 2 ** (frac + 1)) && !Number.isInteger(a * 2 ** frac))) {
    const t = a.toFixed(frac);
    return frac === 0 ? t : t.slice(0, t.length - frac - 1) + t.slice(t.length - frac);
  }
  return fixedDigitsExact(a, frac);
}

/** fixedDigits by exact integer arithmetic: what the fast path must equal. */
export function fixedDigitsExact(x: number, frac: number): string {
  const s = scaledRound(x, frac).toString();
  return s.length <= frac ? '0'.repeat(frac + 1 - s.length) + s : s;
}

/** floor(log10(|x|)) computed exactly. x must be finite and non-zero. */
function decimalExponent(x: number): number {
  const [num, den] = exactFraction(x);
  let k = Math.floor(Math.log10(Math.abs(x)));
  // The float estimate can be off by one next to powers of ten: check against 10^k exactly.
  for (;;) {
    const lowOk = k >= 0 ? num >= pow10n(k) * den : num * pow10n(-k) >= den;
    if (!lowOk) {
      k--;
      continue;
    }
    const k1 = k + 1;
    const highOk = k1 >= 0 ? num < pow10n(k1) * den : num * pow10n(-k1) < den;
    if (!highOk) {
      k++;
      continue;
    }
    return k;
  }
}

/**
 * The first `n` significant digits of |x| (zend_dtoa mode 2), correctly rounded with ties to
 * even, trailing zeros removed, and the decimal point position: |x| = 0.DIGITS × 10^decpt.
 * Zero gives ["0", 1] as dtoa does.
 */
export function significantDigitsEven(x: number, n: number): [string, number] {
  if (x === 0) return ['0', 1];
  let k = decimalExponent(x);
  let d = scaledRound(x, n - 1 - k);
  if (d === pow10n(n)) {
    d = pow10n(n - 1);
    k++;
  }
  const s = d.toString().replace(/0+$/, '');
  return [s === '' ? '0' : s, k + 1];
}

/** Shortest round-trip digits (zend_dtoa mode 0): same shape as significantDigitsEven. */
export function shortestDigits(x: number): [string, number] {
  if (x === 0) return ['0', 1];
  const e = Math.abs(x).toExponential();
  const at = e.indexOf('e');
  const digits = e.slice(0, at).replace('.', '').replace(/0+$/, '');
  return [digits === '' ? '0' : digits, Number(e.slice(at + 1)) + 1];
}
