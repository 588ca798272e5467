import { describe, it } from 'vitest';
import { phpBoolval, phpFloatval, phpIntval, phpMaxMin, phpStrval } from '../../../src/php/format/intval.js';
import { PhpArray, PhpFloat, type Value } from '../../../src/value/value.js';
import { type Case, compareWithPhp, expectAgreement } from '../../support/oracle-args.js';

describe('intval / floatval / boolval / strval / max / min against php', () => {
  it('agree', () => {
    const vals: Value[] = [
      '12abc',
      ' 42',
      '1e3',
      '0x1A',
      '012',
      '0b101',
      '-0o17',
      'abc',
      '',
      '9999999999999999999',
      3.99,
      -3.99,
      new PhpFloat(1e19),
      true,
      false,
      null,
      PhpArray.fromList([]),
      PhpArray.fromList([1]),
      '1.5e300',
      '-7.9',
      new PhpFloat(-0),
      0.1,
    ];
    const cases: Case[] = [];
    for (const v of vals) {
      cases.push({ fn: 'intval', args: [v], ours: () => phpIntval(v) });
      if (typeof v === 'string')
        for (const b of [0, 2, 8, 16, 36]) cases.push({ fn: 'intval', args: [v, b], ours: () => phpIntval(v, b) });
      cases.push({ fn: 'floatval', args: [v], ours: () => phpFloatval(v) });
      cases.push({ fn: 'boolval', args: [v], ours: () => phpBoolval(v) });
      cases.push({ fn: 'strval', args: [v], ours: () => phpStrval(v) });
    }
    const lists: Value[][] = [
      [1, 2, 3],
      ['10', '9'],
      ['10', '9a'],
      ['abc', 0],
      [null, false],
      [1, '1'],
      ['1', 1],
      [PhpArray.fromList([3, 1, 2])],
      [PhpArray.fromList([])],
      [5],
      [1.5, new PhpFloat(2)],
    ];
    for (const l of lists) {
      cases.push({ fn: 'max', args: l, ours: () => phpMaxMin('max', l) });
      cases.push({ fn: 'min', args: l, ours: () => phpMaxMin('min', l) });
    }
    expectAgreement(compareWithPhp(cases, 'php/format/intval'));
  });
});
