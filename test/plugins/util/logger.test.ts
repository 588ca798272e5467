/**
 * {logger}: messages over 1024 bytes are cut to 1024 bytes like PHP's substr() and get
 * "...Over 1kb data."; arrays are logged as json_encode(..., UNESCAPED_UNICODE|UNESCAPED_SLASHES).
 * Expectations come from PHP running that rule: committed answers for the hand inputs
 * (test/fixtures/php/plugins/util/logger.json), live PHP for the seeded random strings.
 */
import { describe, expect, it } from 'vitest';
import { callPhp, toTagged, type OracleResult } from '../../support/php-oracle.js';
import { phpGolden } from '../../support/php-golden.js';
import logger, { logText } from '../../../src/plugins/util/logger.js';
import { fromBytes, toBytes } from '../../../src/value/bytes.js';
import { fromJS, type Value } from '../../../src/value/value.js';
import { Gen, makeCtx, phpLiteral, run } from './support.js';

const PHP_RULE = (expr: string) =>
  `$s = ${expr}; if (is_array($s)) $s = json_encode($s, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES); else $s = (string)$s; ` +
  `return strlen($s) > 1024 ? substr($s, 0, 1024) . '...Over 1kb data.' : $s;`;

const g = new Gen(13);
const strings: string[] = [
  'a'.repeat(1024),
  'a'.repeat(1025),
  'a'.repeat(1023) + 'あ', // 1026 bytes: the cut falls after the first byte of あ
  'a'.repeat(1022) + 'あ', // 1025 bytes: after its second byte
  'a'.repeat(1021) + 'あ', // exactly 1024: kept whole
  'a'.repeat(1021) + 'あい', // the cut falls right after あ
  '😀'.repeat(300), // 4-byte characters across the boundary
  '',
  fromBytes(toBytes('日本語').subarray(0, 4)) + 'x'.repeat(2000), // stray bytes in the input
];
const randomStrings: string[] = [];
for (let i = 0; i < 100; i++) randomStrings.push(g.text(g.int(300, 1100), 'abcあいう漢字😀 '));

const arrays: unknown[] = [
  { path: '/a/b', name: 'テスト', list: [1, 2.5, true, null] },
  { big: 'データ'.repeat(400) },
  Array.from({ length: 300 }, (_, i) => `item/${i}`),
];

const stringCall = (s: string) => ({ fn: '__eval', args: [PHP_RULE(phpLiteral(s))] });
let randomResults: OracleResult[] | undefined;
const liveResult = (i: number) => (randomResults ??= callPhp(randomStrings.map(stringCall)))[i];
const php = phpGolden('plugins/util/logger', [
  ...strings.map(stringCall),
  ...arrays.map((a) => ({
    fn: '__eval',
    args: [PHP_RULE(`json_decode(base64_decode('${Buffer.from(JSON.stringify(a)).toString('base64')}'), true)`)],
  })),
  ...[42, 1.5, true, false].map((v) => ({ fn: '__eval', args: [PHP_RULE(phpLiteral(v))] })),
]);

describe('logger messages against php', () => {
  it.each(strings.map((s, i) => [i, Buffer.byteLength(s)] as const))('string #%i (%i bytes as UTF-8)', (i) => {
    expect(toTagged(logText(strings[i]))).toEqual(php[i].value);
  });

  it.each(randomStrings.map((s, i) => [i, Buffer.byteLength(s)] as const))(
    'seeded random string #%i (%i bytes as UTF-8, live PHP)',
    (i) => {
      expect(toTagged(logText(randomStrings[i]))).toEqual(liveResult(i).value);
    },
  );

  it.each(arrays.map((_, i) => [i] as const))('array #%i as JSON', (i) => {
    expect(toTagged(logText(fromJS(arrays[i])))).toEqual(php[strings.length + i].value);
  });

  it('scalars as their PHP string', () => {
    [42, 1.5, true, false].forEach((v, i) => {
      expect(toTagged(logText(v as Value))).toEqual(php[strings.length + arrays.length + i].value);
    });
  });

  it('cuts by bytes: the boundary character keeps only its leading bytes', () => {
    const out = toBytes(logText('a'.repeat(1023) + 'あ'));
    expect(out.length).toBe(1024 + '...Over 1kb data.'.length);
    expect(out[1023]).toBe(toBytes('あ')[0]);
  });
});

describe('{logger}', () => {
  it('logs each given message at info level, in order, skipping missing ones; prints nothing', () => {
    const ctx = makeCtx();
    const out = run(logger, { msg3: 'third', msg1: 'first', msg2: null, msg4: fromJS({ a: [1, 'ü'] }) }, ctx);
    expect(out ?? '').toBe('');
    expect(ctx.logs).toEqual(['info: first', 'info: third', 'info: {"a":[1,"ü"]}']);
  });
});
