/**
 * The fast paths of float printing equal exact decimal arithmetic (src/value/exact-decimal.ts):
 * PHP's precision-14 echo through String(x) when x's shortest digits fit, and sprintf's `%.Nf`
 * through toFixed away from exact ties. Doubles of every shape: data-like decimals, exact ties
 * (2.5, 0.125), products, tiny, huge and subnormal values.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../support/prng.js';
import { fixedDigits, fixedDigitsExact, significantDigitsEven } from '../../src/value/exact-decimal.js';
import { significantDigits } from '../../src/value/float-format.js';

function doubles(seed: number, n: number): number[] {
  const rnd = mulberry32(seed);
  const bits = new DataView(new ArrayBuffer(8));
  const out: number[] = [0.5, 1.5, 2.5, 0.125, 0.375, 1e21, 1e-7, 123456.5, 0.1 + 0.2, 5e-324, 1.7976931348623157e308];
  for (let i = 0; i < n; i++) {
    const kind = i % 6;
    if (kind === 0) out.push(Math.floor(rnd() * 1e7) / 10 ** Math.floor(rnd() * 8));
    else if (kind === 1) out.push(Math.floor(rnd() * 4096) / 2 ** Math.floor(rnd() * 14));
    else if (kind === 2) out.push(rnd() * 10 ** Math.floor(rnd() * 40 - 20));
    else if (kind === 3) out.push((Math.floor(rnd() * 1e5) / 100) * (Math.floor(rnd() * 1e4) / 100));
    else if (kind === 4) out.push(Math.floor(rnd() * 2 ** 53) * 2 ** Math.floor(rnd() * 30));
    else {
      bits.setUint32(0, Math.floor(rnd() * 2 ** 32) & 0x7fefffff);
      bits.setUint32(4, Math.floor(rnd() * 2 ** 32));
      out.push(bits.getFloat64(0));
    }
  }
  return out;
}

describe('float digits', () => {
  it('echo (precision 14, and 1..15) equals exact rounding with ties to even', () => {
    for (const x of doubles(35001, 30_000)) {
      if (x === 0) continue;
      for (const p of [14, 1, 6, 15])
        expect([x, p, significantDigits(x, p)]).toEqual([x, p, significantDigitsEven(x, p)]);
    }
  });
  it('%.Nf digits equal exact rounding with ties to even', () => {
    for (const x of doubles(35002, 30_000))
      for (const f of [0, 1, 2, 3, 6, 10, 20, 40])
        expect([x, f, fixedDigits(x, f)]).toEqual([x, f, fixedDigitsExact(Math.abs(x), f)]);
  });
});
