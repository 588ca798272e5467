/**
 * The render's random numbers. Isolates have no crypto source, so the host passes 16 random
 * bytes per render and this generator (xoshiro128**) stretches them; a fixed seed makes a
 * render reproducible in tests.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: readonly number[]) {
    const word = (i: number) =>
      ((seed[i * 4] << 24) | (seed[i * 4 + 1] << 16) | (seed[i * 4 + 2] << 8) | seed[i * 4 + 3]) >>> 0;
    this.a = word(0) || 0x9e3779b9;
    this.b = word(1) || 0x243f6a88;
    this.c = word(2) || 0xb7e15162;
    this.d = word(3) || 0x6a09e667;
  }

  /** Uniform in [0, 1). */
  next(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result / 4294967296;
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
