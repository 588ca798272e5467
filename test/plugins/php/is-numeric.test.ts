/**
 * is_numeric (src/value/convert.ts isNumeric, through the modifier) against PHP 8.2: hand
 * cases for the whitespace and format rules (PHP's answers committed in
 * test/fixtures/php/plugins/php/is-numeric.json), then seeded random strings against live PHP.
 */
import { describe, expect, it } from 'vitest';
import { PhpArray, float, type Value } from '../../../src/value/value.js';
import { callPhp, type OracleResult } from '../../support/php-oracle.js';
import { phpGolden } from '../../support/php-golden.js';
import { label, outcome, phpOutcome, randomString, runModifier, seeded, toArg } from './support.js';

const values: Value[] = [
  '1',
  '-1',
  '+1',
  '1.5',
  '.5',
  '5.',
  '.',
  '-.5',
  '+.5e3',
  '1e5',
  '1E5',
  '1e',
  '1e+',
  '1e-5',
  '0x1A',
  '0b11',
  '0o7',
  '010',
  '',
  ' ',
  ' 1',
  '1 ',
  ' 1 ',
  '\t1',
  '1\t',
  '\n1\n',
  '\r1',
  '1\r',
  '\v1',
  '1\v',
  '\f1',
  '1\f',
  '\x001',
  '1\x00',
  '1 2',
  '1_000',
  '1,000',
  'INF',
  'NAN',
  '-INF',
  'abc',
  '12abc',
  'abc12',
  '١٢',
  '１２',
  '\u00a01',
  '1\u00a0',
  '99999999999999999999',
  '-0',
  '+-1',
  '--1',
  '1e1000',
  '.e1',
  '0.',
  '00',
  '1.2.3',
  '1ee5',
  ' .5 ',
  ' -0.0e-0 ',
  12,
  -3,
  1.5,
  float(2),
  true,
  false,
  null,
  PhpArray.fromList([1]),
];
const rnd = seeded(7);
const alphabet = [...'0123456789+-.eE \t\n\r\v\fx'];
const randomValues: Value[] = [];
while (values.length + randomValues.length < 220) randomValues.push(randomString(rnd, alphabet, 8));

const phpCall = (v: Value) => ({ fn: 'is_numeric', args: [toArg(v)] });
const results = phpGolden('plugins/php/is-numeric', values.map(phpCall), { labels: values.map(label) });
let randomResults: OracleResult[] | undefined;
const liveResult = (i: number) => (randomResults ??= callPhp(randomValues.map(phpCall)))[i];

describe(`is_numeric matches PHP 8.2 (${values.length} hand values)`, () => {
  values.forEach((v, i) => {
    it(`#${i} ${label(v)}`, () => {
      expect(outcome(() => runModifier('is_numeric', v))).toEqual(phpOutcome(results[i]));
    });
  });
});

describe(`is_numeric matches live PHP 8.2 on seeded random strings (${randomValues.length} values)`, () => {
  randomValues.forEach((v, i) => {
    it(`random #${i} ${label(v)}`, () => {
      expect(outcome(() => runModifier('is_numeric', v))).toEqual(phpOutcome(liveResult(i)));
    });
  });
});
