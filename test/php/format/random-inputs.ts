/** Random inputs for the sprintf / round / number_format differential tests. */
import { PhpFloat, type Value } from '../../../src/value/value.js';
import type { Prng } from '../../support/prng.js';

/** Floats that stress rounding: ties, near-ties, tiny, huge, negative zero. */
export function randomFloat(r: Prng): number {
  switch (r.int(0, 9)) {
    case 0:
      return r.int(-50, 50) + 0.5; // exact ties
    case 1:
      return r.int(-4000, 4000) / 8; // exact binary fractions
    case 2:
      return Number((r.int(-99999, 99999) / 1000).toFixed(3)); // 1.005-like decimals
    case 3:
      return (r.next() - 0.5) * 10 ** r.int(-12, 22);
    case 4:
      return Number(`${r.int(1, 9)}.${r.int(0, 99999)}e${r.int(-320, 308)}`) * (r.chance(0.5) ? -1 : 1);
    case 5:
      return r.pick([
        0.1, 0.2, 0.3, 1.005, 2.675, 1.45, 3.045, 0.125, 0.375, 99.95, 1234567.891, -0.0, 5e-324,
        1.7976931348623157e308,
      ]);
    case 6:
      return Number((r.next() * 1000).toFixed(r.int(0, 6)));
    case 7:
      return (r.next() - 0.5) * 2 ** 60;
    default:
      return (r.next() - 0.5) * 10 ** r.int(0, 8);
  }
}

/** As a PHP value: integral floats boxed. */
export function floatValue(x: number): Value {
  return Number.isInteger(x) || Object.is(x, -0) ? new PhpFloat(x) : x;
}

function randomInt(r: Prng): number {
  switch (r.int(0, 4)) {
    case 0:
      return r.int(-100, 100);
    case 1:
      return r.int(-1e9, 1e9);
    case 2:
      return r.pick([0, -1, 255, 256, 65, 2 ** 31, -(2 ** 31), 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 40]);
    default:
      return Math.round((r.next() - 0.5) * 2 ** r.int(1, 52));
  }
}

const STRINGS = [
  '',
  'abc',
  'hello world',
  '日本',
  '日本語テキスト',
  '12abc',
  '3.99',
  ' 42',
  '1e3',
  '-7.9',
  'x',
  '0',
  'été',
  '1.5e300',
  'abc def ghi',
];

export function randomValue(r: Prng): Value {
  switch (r.int(0, 9)) {
    case 0:
    case 1:
    case 2:
      return randomInt(r);
    case 3:
    case 4:
    case 5:
      return floatValue(randomFloat(r));
    case 6:
    case 7:
      return r.pick(STRINGS);
    case 8:
      return r.pick([true, false, null]);
    default:
      return String(randomFloat(r));
  }
}
