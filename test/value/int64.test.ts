/**
 * PHP's 64-bit ints in the value kernel, against php-cli (docs/decisions.md D69): arithmetic,
 * casts, string conversion, comparisons and array keys, on operands around 2^53 and 2^63,
 * snowflake IDs, nanosecond and chat timestamps ("1700000000.123456") and integer strings
 * that overflow. PHP's answers are committed in test/fixtures/php/value/int64.json and
 * re-checked against live PHP in CI (test/conformance/php-fixtures.test.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  add,
  sub,
  mul,
  div,
  mod,
  neg,
  bitAnd,
  bitOr,
  bitXor,
  shl,
  shr,
  bitNot,
  PhpDivisionByZero,
} from '../../src/value/arith.js';
import { compare, looseEq, strictEq, lt } from '../../src/value/compare.js';
import { PhpTypeError, isNumeric, toInt64, toStr } from '../../src/value/convert.js';
import { INT_MAX, INT_MIN, intInRange, intOf } from '../../src/value/int64.js';
import { PhpArray, PhpFloat, type Value, float } from '../../src/value/value.js';
import { phpEval } from '../support/php-call.js';
import { phpGolden } from '../support/php-golden.js';
import { toTagged, type Tagged } from '../support/php-oracle.js';

const big = (digits: string): Value => intOf(BigInt(digits));

/** Ints on both sides of 2^53 and 2^63, and IDs as integrations send them. */
const INTS: Value[] = [
  0,
  1,
  -1,
  1700000000,
  9007199254740991,
  -9007199254740991,
  big('9007199254740992'),
  big('9007199254740993'),
  big('-9007199254740993'),
  big('4611686018427387904'),
  big('9223372036854775806'),
  big('9223372036854775807'),
  big('-9223372036854775807'),
  big('-9223372036854775808'),
  big('1541815603606036480'), // a Discord snowflake
  big('1700000000123456789'), // a nanosecond timestamp
];

/** Strings as they arrive in data: integer strings past 2^53 and past 64 bits, chat timestamps. */
const STRINGS: Value[] = [
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '-9223372036854775809',
  ' 9007199254740993',
  '9007199254740993 ',
  '+9007199254740993',
  '00009223372036854775807',
  '1541815603606036480',
  '1700000000.123456',
  '99999999999999999999',
  '9.2233720368547758E+18',
  '12abc',
];

const FLOATS: Value[] = [float(2 ** 53), float(2 ** 63), 1.5, -0.5, float(1e19)];

interface Case {
  name: string;
  php: string;
  args: Value[];
  ours: () => Value;
}

const cases: Case[] = [];
const show = (v: Value): string =>
  typeof v === 'string' ? JSON.stringify(v) : v instanceof PhpFloat ? `${v.value}.0` : String(v);
const binary = (op: string, f: (a: Value, b: Value) => Value, a: Value, b: Value) =>
  cases.push({
    name: `${show(a)} ${op} ${show(b)}`,
    php: `return $args[0] ${op} $args[1];`,
    args: [a, b],
    ours: () => f(a, b),
  });
const unary = (name: string, php: string, f: (a: Value) => Value, a: Value) =>
  cases.push({ name: `${name}(${show(a)})`, php, args: [a], ours: () => f(a) });

// + - *: each int and numeric string with small operands, and with itself (overflow at 2^63).
for (const a of [...INTS, ...STRINGS.filter((s) => s !== '12abc'), ...FLOATS]) {
  for (const b of [1, -1, 2, a]) {
    binary('+', add, a, b);
    binary('-', sub, a, b);
  }
  binary('*', mul, a, 3);
}
binary('+', add, '12abc', big('9007199254740993'));
binary('*', mul, big('3074457345618258602'), 3);
binary('*', mul, big('3074457345618258603'), 3);
binary('*', mul, big('-4611686018427387904'), 2);
binary('*', mul, big('4611686018427387904'), -2);
binary('*', mul, 94906265, 94906266);
binary('*', mul, 4294967296, 4294967296);

// / and %: exact int quotients stay ints, PHP_INT_MIN / -1 is a float, % -1 is 0.
for (const a of [
  big('9007199254740994'),
  big('9007199254740993'),
  big('9223372036854775807'),
  big('-9223372036854775808'),
  big('1541815603606036480'),
  '9223372036854775807',
]) {
  for (const b of [2, 3, -1, 1000, big('4611686018427387904')]) {
    binary('/', div, a, b);
    binary('%', mod, a, b);
  }
}
binary('/', div, 9007199254740991, 9007199254740990);
binary('/', div, big('9007199254740993'), 0);
binary('%', mod, big('9007199254740993'), 0);
binary('%', mod, float(1e19), 7);

// Bit operators and shifts on 64 bits.
for (const [a, b] of [
  [big('9223372036854775807'), big('-9223372036854775808')],
  [big('1541815603606036480'), 4194303],
  [-1, big('9007199254740993')],
] as [Value, Value][]) {
  binary('&', bitAnd, a, b);
  binary('|', bitOr, a, b);
  binary('^', bitXor, a, b);
}
binary('<<', shl, 1, 62);
binary('<<', shl, 1, 63);
binary('<<', shl, big('1541815603606036480'), 1);
binary('>>', shr, big('1541815603606036480'), 22);
binary('>>', shr, big('-9223372036854775808'), 63);
unary('~', 'return ~$args[0];', bitNot, big('9223372036854775807'));

// Unary minus, the (int) cast, string conversion (echo) and is_numeric of every operand.
for (const a of [...INTS, ...STRINGS, ...FLOATS]) {
  unary('-', 'return -$args[0];', neg, a);
  unary('(int)', 'return (int)$args[0];', toInt64, a);
  unary('(string)', 'return (string)$args[0];', toStr, a);
  if (typeof a === 'string') unary('is_numeric', 'return is_numeric($args[0]);', isNumeric, a);
}

// Comparisons: ints exactly, int against float as the int's double, two numeric strings as
// ints when both fit in 64 bits, else as floats (overflowed ones by their side, or as text).
const PAIRS: [Value, Value][] = [
  ['9223372036854775807', '9223372036854775808'],
  ['9223372036854775808', '9223372036854775809'],
  ['9223372036854775808', '9223372036854775808.0'],
  ['9223372036854775808', '9.2233720368547758E+18'],
  ['-9223372036854775809', '-9223372036854775808'],
  ['-9223372036854775809', '-9223372036854775810'],
  ['99999999999999999999', '99999999999999999998'],
  ['9007199254740993', '9007199254740992'],
  ['9007199254740993', ' 9007199254740993'],
  ['9007199254740993 ', '+9007199254740993'],
  ['00009223372036854775807', '9223372036854775807'],
  ['1541815603606036480', '1541815603606036481'],
  ['1700000000.123456', '1700000000.123457'],
  ['1700000000.123456', '1700000000.1234560'],
  ['1e19', '9999999999999999999'],
  [big('9007199254740993'), float(2 ** 53)],
  [big('9007199254740993'), '9007199254740992'],
  [big('9007199254740993'), '9007199254740992.0'],
  [big('9007199254740993'), big('9007199254740992')],
  [big('9223372036854775807'), '9223372036854775808'],
  [big('9223372036854775807'), float(2 ** 63)],
  [big('-9223372036854775808'), float(-(2 ** 63))],
  [big('-9223372036854775808'), '-9223372036854775809'],
  [big('1541815603606036480'), '1541815603606036480'],
  [big('1541815603606036480'), 1541815603606036480], // the same id as a JavaScript double: a float
  [1700000000, '1700000000.123456'],
  [big('9007199254740993'), '12abc'],
  [big('9007199254740993'), true],
  [big('9007199254740993'), null],
  [big('9223372036854775807'), 'abc'],
];
for (const [a, b] of PAIRS) {
  binary('<=>', compare, a, b);
  binary('==', looseEq, a, b);
  binary('===', strictEq, a, b);
  binary('<', lt, b, a);
}

// Array keys: canonical integer strings within 64 bits are int keys, floats truncate.
for (const k of [
  ...INTS,
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '-9223372036854775809',
  '09007199254740993',
  float(2 ** 53),
  1e15 + 0.5,
]) {
  unary('array key', 'return [$args[0] => 1];', (x) => PhpArray.fromEntries([[x as string, 1]]), k);
}

/** Ours in the oracle's terms: PHP's errors (TypeError, DivisionByZeroError) as 'error'. */
function ours(c: Case): Tagged | 'error' {
  try {
    return toTagged(c.ours());
  } catch (e) {
    if (e instanceof PhpTypeError || e instanceof PhpDivisionByZero) return 'error';
    throw e;
  }
}

const results = phpGolden(
  'value/int64',
  cases.map((c) => phpEval(c.args, c.php)),
  { labels: cases.map((c) => c.name) },
);

describe('64-bit ints in the value kernel against php', () => {
  it('has a large table', () => expect(cases.length).toBeGreaterThanOrEqual(300));
  it.each(cases.map((c, i) => [c.name, i] as const))('%s', (_name, i) => {
    const r = results[i];
    expect(ours(cases[i])).toEqual(r.ok ? r.value : 'error');
  });
});

describe('a random draw over ranges past 2^53 (mt_rand, rand in {math})', () => {
  it('stays an int within the range, in its one form, at both ends', () => {
    for (const [min, max] of [
      [INT_MAX - 10n, INT_MAX],
      [INT_MIN, INT_MAX],
      [0, INT_MAX],
      [-5, 9007199254740993n],
      [1, 6],
    ] as [bigint | number, bigint | number][]) {
      for (const unit of [0, 0.25, 0.5, 0.999999, 1 - 2 ** -53]) {
        const r = intInRange(min, max, unit);
        expect(r >= min && r <= max, `${min}..${max} at ${unit}: ${r}`).toBe(true);
        expect(intOf(BigInt(r))).toBe(r);
      }
    }
    expect(intInRange(INT_MAX - 10n, INT_MAX, 0)).toBe(INT_MAX - 10n);
    expect(intInRange(1, 6, 0.5)).toBe(4);
  });
});
