/**
 * Numeric strings with more digits than an int64 or a double can tell apart (HH-08): PHP's
 * answers, reached without handing BigInt() the whole digit string (a 16M-digit parse is
 * seconds of native work that the isolate's CPU timeout cannot interrupt).
 */
import { describe, expect, it } from 'vitest';
import { phpIntval } from '../../../src/php/format/intval.js';
import { phpSprintf } from '../../../src/php/format/sprintf.js';
import { jsonDecode } from '../../../src/php/json/decode.js';
import { jsonEncode } from '../../../src/php/json/encode.js';
import { filterVar } from '../../../src/php/filter/filter-var.js';
import { phpAbs } from '../../../src/php/format/round.js';
import { int64OfDecimal } from '../../../src/value/int64.js';
import * as F from '../../../src/php/filter/constants.js';
import { type Value } from '../../../src/value/value.js';
import { type Case, compareWithPhp, expectAgreement } from '../../support/oracle-args.js';

const JSON_BIGINT_AS_STRING = 2;
const JSON_NUMERIC_CHECK = 32;

const digitStrings = (): string[] => {
  const out: string[] = [];
  for (const n of [18, 19, 20, 21, 30, 400, 5000]) out.push('9'.repeat(n), '1' + '0'.repeat(n - 1));
  const edges = [
    '9223372036854775807',
    '9223372036854775808',
    '-9223372036854775808',
    '-9223372036854775809',
    '+9223372036854775807',
  ];
  for (const e of edges) out.push(e, e.replace(/^([+-]?)/, `$1${'0'.repeat(40)}`));
  out.push('0'.repeat(5000), '-' + '0'.repeat(5000) + '7', ' ' + '9'.repeat(25), '-' + '9'.repeat(400));
  return out;
};

/** The cases every digit string goes through, as PHP calls and our functions. */
function casesFor(s: string): Case[] {
  const warn = () => {};
  return [
    { fn: 'intval', args: [s], ours: () => phpIntval(s) },
    { fn: 'intval', args: [s, 0], ours: () => phpIntval(s, 0) },
    { fn: 'abs', args: [s], ours: () => phpAbs(s) },
    { fn: 'sprintf', args: ['%d', s], ours: () => phpSprintf('%d', [s]) },
    { fn: 'json_decode', args: [s], ours: () => jsonDecode(s) },
    {
      fn: 'json_decode',
      args: [s, true, 512, JSON_BIGINT_AS_STRING],
      ours: () => jsonDecode(s, true, 512, JSON_BIGINT_AS_STRING),
    },
    { fn: 'json_encode', args: [s, JSON_NUMERIC_CHECK], ours: () => jsonEncode(s, JSON_NUMERIC_CHECK) },
    { fn: 'filter_var', args: [s, F.FILTER_VALIDATE_INT], ours: () => filterVar(s, F.FILTER_VALIDATE_INT, null, warn) },
    {
      fn: 'filter_var',
      args: [s, F.FILTER_VALIDATE_FLOAT],
      ours: () => filterVar(s, F.FILTER_VALIDATE_FLOAT, null, warn),
    },
  ];
}

/** The longest string BigInt() is given during `run`: a BigInt() parse of 16M digits took over 10 s. */
function longestBigIntText(run: () => void): number {
  const original = globalThis.BigInt;
  let longest = 0;
  const counting = (v: string | number | bigint | boolean): bigint => {
    if (typeof v === 'string') longest = Math.max(longest, v.length);
    return original(v);
  };
  globalThis.BigInt = Object.assign(counting, original) as BigIntConstructor;
  try {
    run();
    return longest;
  } finally {
    globalThis.BigInt = original;
  }
}

function radixCases(): Case[] {
  const warn = () => {};
  const hex = [
    '0x' + '0'.repeat(40) + '1f',
    '0x' + 'f'.repeat(16),
    '0x1' + '0'.repeat(16),
    '0x' + 'f'.repeat(5000),
    '0x' + '0'.repeat(5000),
  ];
  const oct = [
    '0' + '7'.repeat(22),
    '01' + '7'.repeat(21),
    '02' + '0'.repeat(21),
    '0' + '0'.repeat(40) + '17',
    '0' + '7'.repeat(5000),
  ];
  return [
    ...hex.map((s): Case => ({
      fn: 'filter_var',
      args: [s, F.FILTER_VALIDATE_INT, F.FILTER_FLAG_ALLOW_HEX],
      ours: () => filterVar(s, F.FILTER_VALIDATE_INT, F.FILTER_FLAG_ALLOW_HEX, warn),
    })),
    ...oct.map((s): Case => ({
      fn: 'filter_var',
      args: [s, F.FILTER_VALIDATE_INT, F.FILTER_FLAG_ALLOW_OCTAL],
      ours: () => filterVar(s, F.FILTER_VALIDATE_INT, F.FILTER_FLAG_ALLOW_OCTAL, warn),
    })),
  ];
}

describe('long digit strings', () => {
  it('intval, int|float arguments, sprintf %d, json_decode, json_encode NUMERIC_CHECK and filter_var agree with php', () => {
    expectAgreement(compareWithPhp([...digitStrings().flatMap(casesFor), ...radixCases()]));
  });

  it('int64OfDecimal: the value inside int64, null outside, whatever the padding', () => {
    expect(int64OfDecimal('9223372036854775807')).toBe(2n ** 63n - 1n);
    expect(int64OfDecimal('-9223372036854775808')).toBe(-(2n ** 63n));
    expect(int64OfDecimal('9223372036854775808')).toBeNull();
    expect(int64OfDecimal('+' + '0'.repeat(100) + '42')).toBe(42n);
    expect(int64OfDecimal('-' + '0'.repeat(100))).toBe(0n);
    expect(int64OfDecimal('1' + '0'.repeat(19))).toBeNull();
  });

  it('16 million digits are answered like 5000 (the same overflow), without a long native parse', () => {
    const huge = '9'.repeat(16_000_000);
    const five = '9'.repeat(5000);
    const hugeHex = '0x' + 'f'.repeat(16_000_000);
    // strings that come back whole (BIGINT_AS_STRING, NUMERIC_CHECK of an INF) compared with the 5000 digits in their place
    const ours = (s: string): Value[] =>
      casesFor(s)
        .map((c) => c.ours())
        .map((v) => (typeof v === 'string' ? v.replace(s, five) : v));
    let answers: Value[] = [];
    let hex: Value = null;
    const longest = longestBigIntText(() => {
      answers = ours(huge);
      hex = filterVar(hugeHex, F.FILTER_VALIDATE_INT, F.FILTER_FLAG_ALLOW_HEX, () => {});
    });
    expect(answers).toEqual(ours(five));
    expect(hex).toBe(false);
    // an int64 is at most 20 decimal digits (24 characters as '0o' and 22 octal ones): never the whole string
    expect(longest).toBeLessThanOrEqual(24);
    // the counter sees the parses our code does
    expect(longestBigIntText(() => int64OfDecimal('9223372036854775807'))).toBe(19);
  });
});
