/**
 * The fractional hex digits of pi as 32-bit words: Blowfish's P-array and S-boxes are the
 * first 18 + 4 * 256 of them. Used to generate and to check src/php/hash/blowfish-tables.ts.
 */
function arctanInv(x: bigint, one: bigint): bigint {
  // atan(1/x) = sum (-1)^k / ((2k+1) x^(2k+1))
  let sum = 0n;
  let power = one / x;
  const x2 = x * x;
  for (let k = 0n; power !== 0n; k++) {
    const term = power / (2n * k + 1n);
    sum += k % 2n === 0n ? term : -term;
    power /= x2;
  }
  return sum;
}

export function piWords(count: number): number[] {
  const guard = 64n;
  const bits = BigInt(count * 32) + guard;
  const one = 1n << bits;
  const pi = 16n * arctanInv(5n, one) - 4n * arctanInv(239n, one); // Machin
  const frac = (pi - (3n << bits)) >> guard;
  const words: number[] = [];
  for (let i = count - 1; i >= 0; i--) words.push(Number((frac >> BigInt(i * 32)) & 0xffffffffn));
  return words;
}
