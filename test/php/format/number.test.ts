import { describe, it, expect } from 'vitest';
import { phpNumberFormat } from '../../../src/php/format/number-format.js';
import { phpAbs, phpCeil, phpFloor, phpRound } from '../../../src/php/format/round.js';
import { PhpFloat, type Value } from '../../../src/value/value.js';
import { Prng } from '../../support/prng.js';
import { floatValue, randomFloat, randomValue } from './random-inputs.js';
import { type Case, compareWithPhp, expectAgreement } from '../../support/oracle-args.js';

const nf = (...args: Value[]): Case => ({
  fn: 'number_format',
  args,
  ours: () => phpNumberFormat(args[0], ...(args.slice(1) as [Value?, Value?, Value?])),
});
const rd = (...args: Value[]): Case => ({
  fn: 'round',
  args,
  ours: () => phpRound(args[0], args.length > 1 ? args[1] : 0),
});
const one =
  (fn: string, f: (v: Value) => Value) =>
  (v: Value): Case => ({ fn, args: [v], ours: () => f(v) });
const fl = one('floor', (v) => phpFloor(v));
const ce = one('ceil', (v) => phpCeil(v));
const ab = one('abs', (v) => phpAbs(v));

describe('number_format / round / floor / ceil / abs against php', () => {
  it('hand-picked edge cases', () => {
    const f = (n: number) => new PhpFloat(n);
    const cases: Case[] = [
      nf(1234567.891),
      nf(1234567.891, 2),
      nf(1234567.891, 2, ',', '.'),
      nf(2.5),
      nf(-1234.567, 1),
      nf(-0.4),
      nf(1.005, 2),
      nf(-0.5),
      nf(0.5),
      nf(1234.5, -2),
      nf(1e15, 2),
      nf(f(1e20)),
      nf(123456789, 0, '.', '、'),
      nf(1234567.5, 2, '', ''),
      nf(-0),
      nf(f(-0)),
      nf(0),
      nf(-1),
      nf(999),
      nf(1000),
      nf(-1000),
      nf(-9007199254740991),
      nf(1234567, 0, '.', ''),
      nf(1234567, 0, '.', null),
      nf(1234.5678, 3, '・', ' '),
      nf('1234.5'),
      nf('12abc'),
      nf('abc'),
      nf(null),
      nf(true),
      nf(f(NaN)),
      nf(f(Infinity)),
      nf(0.129, 2),
      nf(1.45, 1),
      nf(-1.45, 1),
      nf(5e-324, 2),
      nf(1.5, 30),
      rd(3.045, 2),
      rd(1.005, 2),
      rd(-2.5),
      rd(2.5),
      rd(1.955, 2),
      rd(5.055, 2),
      rd(1234567.891, -3),
      rd(0.285, 2),
      rd(7),
      rd(7, -1),
      rd(15, -1),
      rd(-15, -1),
      rd('3.7'),
      rd('abc'),
      rd(0.49999999999999994),
      rd(1.45, 1),
      rd(f(1e20), 2),
      rd(1e-20, 25),
      rd(123.456, 30),
      rd(f(Infinity)),
      rd(f(NaN)),
      rd(2.675, 2),
      rd(null),
      rd(true, 2),
      fl(-2.5),
      fl(7),
      fl('3.9'),
      fl(f(-0)),
      fl('x'),
      ce(-2.5),
      ce(-0.5),
      ce(7),
      ce(null),
      ab(-7),
      ab(-2.5),
      ab(f(-3)),
      ab('-4'),
      ab('-4.5'),
      ab(-(2 ** 53 - 1)),
    ];
    expectAgreement(compareWithPhp(cases, 'php/format/number'));
  });

  it('400+ random number_format and round calls agree with php (seeded)', () => {
    const r = new Prng(424242);
    const cases: Case[] = [];
    for (let n = 0; n < 260; n++) {
      const x = r.chance(0.85) ? floatValue(randomFloat(r)) : randomValue(r);
      const dec = r.int(-3, 8);
      const c = r.int(0, 3);
      if (c === 0) cases.push(nf(x));
      else if (c === 1) cases.push(nf(x, dec < 0 ? 0 : dec));
      else
        cases.push(
          nf(x, dec < 0 ? 0 : dec, r.pick(['.', ',', '', ' . ', '点']), r.pick([',', '.', '', ' ', '、', "'"])),
        );
    }
    for (let n = 0; n < 240; n++) {
      const x = r.chance(0.85) ? floatValue(randomFloat(r)) : randomValue(r);
      cases.push(r.chance(0.2) ? rd(x) : rd(x, r.int(-6, 12)));
    }
    for (let n = 0; n < 60; n++) {
      const x = r.chance(0.7) ? floatValue(randomFloat(r)) : randomValue(r);
      cases.push(r.pick([fl, ce, ab])(x));
    }
    expect(cases.length).toBeGreaterThanOrEqual(400);
    expectAgreement(compareWithPhp(cases));
  });
});
