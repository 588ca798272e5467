/**
 * The one seeded generator of the tests and the bench data (mulberry32): small, fast, and the
 * same sequence for the same seed on every run, so a failing random case can be replayed.
 */
export class Prng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** The next raw 32-bit output. */
  uint32(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** The generator as a plain function returning floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  const p = new Prng(seed);
  return () => p.next();
}
