/**
 * mb_convert_kana against PHP 8.2: every mode letter and the combinations used in practice, on
 * hand strings and the mode errors (PHP's answers committed in
 * test/fixtures/php/plugins/php/mb-convert-kana.json), and against live PHP on seeded random
 * strings drawn from the blocks the conversions touch (ASCII, fullwidth forms, halfwidth kana,
 * hiragana, katakana, CJK punctuation, quotes, yen and macron signs, a few kanji, invalid UTF-8).
 */
import { describe, expect, it } from 'vitest';
import { fromBinary } from '../../../src/value/bytes.js';
import type { Value } from '../../../src/value/value.js';
import { callPhp, type OracleResult } from '../../support/php-oracle.js';
import { phpGolden } from '../../support/php-golden.js';
import { label, outcome, phpOutcome, runModifier, seeded, toArg } from './support.js';

const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => String.fromCodePoint(a + i));
const pool = [
  ...range(0x20, 0x7e),
  ...range(0xff01, 0xff5e),
  ...range(0xff61, 0xff9f),
  ...range(0xff61, 0xff9f),
  '\uff9e',
  '\uff9f',
  '\uff9e',
  '\uff9f',
  ...range(0x3041, 0x3096),
  ...range(0x3099, 0x309f),
  ...range(0x30a1, 0x30ff),
  ...range(0x3000, 0x3003),
  '\u300c',
  '\u300d',
  '\u2018',
  '\u2019',
  '\u201c',
  '\u201d',
  '\u2212',
  '\uffe3',
  '\uffe5',
  '\u00a5',
  '\u203e',
  '漢',
  '字',
  '😀',
  'é',
  fromBinary('\xff'),
  fromBinary('\xe3\x81'),
  fromBinary('\x80'),
];

const rnd = seeded(1234);
const strings: string[] = [
  'ｶﾞｷﾞｸﾞｹﾞｺﾞ ﾊﾟﾋﾟﾌﾟﾍﾟﾎﾟ ｳﾞ ﾜﾞ ｦﾞ ｱﾞ',
  'ｶﾞ',
  'ﾞｶ',
  'ｶ',
  'ﾊﾟﾞ',
  'ガギグゲゴ パピプペポ ヴ ヷヸヹヺ ヵヶ ー・「」、。゛゜',
  'がぎぐげご ぱぴぷぺぽ ゔ ゕゖ ゝゞ ヽヾ',
  'ＡＢＣ　ａｂｃ　０１２３　！＂＃＄％＆＇（）＊＋，－．／：；＜＝＞？＠［＼］＾＿｀｛｜｝～',
  'ABC abc 0123 !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
  '‘’“”−￣￥¥‾',
  '',
  fromBinary('a\xffb\xe3\x81'),
  fromBinary('\xe3\x81\x82\xe3'),
];
const randomStrings: string[] = [];
while (strings.length + randomStrings.length < 313) {
  const n = 1 + Math.floor(rnd() * 12);
  let s = '';
  for (let i = 0; i < n; i++) s += pool[Math.floor(rnd() * pool.length)];
  randomStrings.push(s);
}

const modes = [
  'KV',
  'KVa',
  'as',
  'c',
  'C',
  'h',
  'H',
  'k',
  'K',
  'r',
  'R',
  'n',
  'N',
  'A',
  'S',
  's',
  'a',
  'HV',
  'KVas',
  'M',
  'm',
  'V',
  '',
  'ASKVM',
  'rnsk',
  'hm',
];
interface Case {
  s: Value;
  mode: Value;
  encoding?: Value;
}
const cases: Case[] = [];
const randomCases: Case[] = [];
for (const mode of modes) for (const s of strings) cases.push({ s, mode });
for (const mode of modes) for (const s of randomStrings) randomCases.push({ s, mode });
for (const mode of ['Rr', 'Aa', 'An', 'aN', 'KH', 'hC', 'hc', 'kC', 'kc', 'Cc', 'Ss', 'Mm', 'x', 'KVz', 'Kk', 'Hh'])
  cases.push({ s: 'ｱ', mode });
cases.push(
  { s: 'ｱ', mode: 'KV', encoding: 'UTF-8' },
  { s: 'ｱ', mode: 'KV', encoding: 'utf8' },
  { s: 123, mode: 'A' },
  { s: null, mode: 'KV' },
);

const phpCall = (c: Case) => ({
  fn: 'mb_convert_kana',
  args: c.encoding === undefined ? [toArg(c.s), toArg(c.mode)] : [toArg(c.s), toArg(c.mode), toArg(c.encoding)],
});
const results = phpGolden('plugins/php/mb-convert-kana', cases.map(phpCall), {
  labels: cases.map((c) => `${label(c.mode)} ${label(c.s)}`),
});
let randomResults: OracleResult[] | undefined;
const liveResult = (i: number) => (randomResults ??= callPhp(randomCases.map(phpCall)))[i];
const ours = (c: Case) =>
  outcome(() => runModifier('mb_convert_kana', c.s, c.encoding === undefined ? [c.mode] : [c.mode, c.encoding]));

describe(`mb_convert_kana matches live PHP 8.2 on seeded random strings (${randomCases.length} cases)`, () => {
  randomCases.forEach((c, i) => {
    it(`random #${i} ${label(c.mode)} ${label(c.s)}`, () => {
      expect(ours(c)).toEqual(phpOutcome(liveResult(i)));
    });
  });
});

describe(`mb_convert_kana matches PHP 8.2 (${cases.length} hand cases)`, () => {
  cases.forEach((c, i) => {
    it(`#${i} ${label(c.mode)} ${label(c.s)}`, () => {
      expect(ours(c)).toEqual(phpOutcome(results[i]));
    });
  });

  it('refuses encodings other than UTF-8 rather than guessing', () => {
    expect(outcome(() => runModifier('mb_convert_kana', 'ｱ', ['KV', 'SJIS']))).toBe('error');
  });
});
