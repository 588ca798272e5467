/**
 * The one JSON→PHP parser (src/php/json/decode.ts) against PHP 8.2's json_decode, through both of
 * its callers: jsonDecode (the json_decode modifier and the host plugins) and the render's
 * variables given as JSON text (src/runtime/vars.ts). PHP's answers, value and json_last_error()
 * together, are recorded in test/fixtures/php/php/json/decode.json (`npm run fixtures:php`).
 *
 * The texts are the edges where the two parsers this one replaced disagreed or guessed: lone
 * surrogates, NUL and empty keys, the depth limit, big ints, -0, 1e400, duplicate keys, and which
 * error PHP names for a bad text.
 */
import { describe, expect, it } from 'vitest';
import { jsonDecode, parseJson } from '../../../src/php/json/decode.js';
import { parseVarsJson } from '../../../src/runtime/vars.js';
import { VarsError } from '../../../src/protocol/vars.js';
import { PhpArray, PhpObject, type Value } from '../../../src/value/value.js';
import { toBytes } from '../../../src/value/bytes.js';
import { fromTagged, toTagged, type Tagged } from '../../support/php-oracle.js';
import { phpGolden, type PhpCall } from '../../support/php-golden.js';

const BIGINT_AS_STRING = 2;
const INVALID_UTF8_IGNORE = 1048576;
const INVALID_UTF8_SUBSTITUTE = 2097152;

/** A text to decode; `objects` false and true both, unless the case names one. */
interface Case {
  text: string;
  depth?: number;
  flags?: number;
  objects?: boolean;
  /** Too deep for the oracle's answer (json_encode's own depth): PHP says only whether it decoded. */
  deep?: boolean;
}

const nest = (n: number) => '['.repeat(n) + '1' + ']'.repeat(n);

const TEXTS: Case[] = [
  // Surrogates: an escape alone is PHP's error 10; a stray byte (a lone surrogate here) is invalid UTF-8.
  ...['"\\ud800"', '"\\udc00"', '"\\ud800\\u0041"', '"\\ud800x"', '"\\ud800', '"\\ud800\\u00"', '"\\ud800\\ud800"'].map(
    (text) => ({ text, objects: false }),
  ),
  { text: '"\\ud83d\\ude00"', objects: false },
  { text: '"\\uD83D\\uDE00"', objects: false },
  { text: '"\udcff"', objects: false },
  { text: '"a\udcffb"', objects: false, flags: INVALID_UTF8_IGNORE },
  { text: '"a\udcffb"', objects: false, flags: INVALID_UTF8_SUBSTITUTE },
  { text: '{"\udcff":1}' },
  { text: '"\\u00e9 日本 😀"', objects: false },
  // Keys.
  { text: '{"\\u0000a":1}' },
  { text: '{"a\\u0000":1}' },
  { text: '{"\\u0000":1}' },
  { text: '{"":1,"_empty_":2}' },
  { text: '{"\\u0000a":"\\ud800"}' },
  { text: '{"\\u0000a":1 x}' },
  { text: '{"a":1,"b":2,"a":3}' },
  { text: '{"1":1,"b":2,"01":3,"-0":4,"9223372036854775808":5,"-5":6,"9223372036854775807":7}', objects: false },
  { text: '{"1":1,"b":2,"01":3,"-0":4,"-5":6}', objects: true },
  { text: '{"a":[1,{"b":null,"c":[]}],"d":true,"e":{}}' },
  // Depth: 1 allows scalars only.
  { text: '[]', depth: 1 },
  { text: '1', depth: 1 },
  { text: '[[]]', depth: 2 },
  { text: '[[1]]', depth: 3 },
  { text: nest(3), depth: 3 },
  { text: nest(3), depth: 4 },
  { text: '{"a":{}}', depth: 2 },
  { text: '[\u0001', depth: 1 },
  { text: '["\\ud800"]', depth: 1 },
  { text: nest(511), objects: false, deep: true },
  { text: nest(512), objects: false, deep: true },
  { text: `{"a":${nest(510)}}`, objects: true, deep: true },
  { text: `{"a":${nest(511)}}`, objects: true, deep: true },
  // Numbers.
  ...[
    '9223372036854775807',
    '9223372036854775808',
    '-9223372036854775808',
    '-9223372036854775809',
    '9007199254740993',
    '123456789012345678901234567890',
    '-0',
    '-0.0',
    '0e0',
    '-0e1',
    '1e400',
    '-1e400',
    '0.1e-400',
    '1E2',
    '1.0',
    '1.5e+3',
    '1e-7',
    '[0.1,2,-3]',
  ].map((text) => ({ text, objects: false })),
  { text: '[12345678901234567890,-9223372036854775809,1e2]', objects: false, flags: BIGINT_AS_STRING },
  // Syntax, and which error PHP names.
  ...[
    '',
    ' ',
    '\ufeff1',
    '01',
    '-01',
    '[1,]',
    '{"a":1,}',
    '{,}',
    'tru',
    'nul',
    'NaN',
    'TRUE',
    '1 2',
    '-',
    '1.',
    '.5',
    '+1',
    '[1',
    '{"a" 1}',
    '{1:2}',
    '1 "\\ud800"',
    '[1 \u0001]',
    '"\\x"',
    '"\\u12"',
    '"\\u12G4"',
    '"\\',
    '"abc',
    '"a\u0001"',
    '\f1',
    '1\u0000',
    '\u00001',
    '" \u007f"',
    '"\\u0000"',
    ' \t\n\r1 \n',
    '"\\/\\b\\f\\n\\r\\t\\"\\\\"',
  ].map((text) => ({ text, objects: false })),
  { text: '{"a":1} x' },
  { text: '{"a":"\u0001"}' },
];

const CASES = TEXTS.flatMap((c) =>
  (c.objects === undefined ? [false, true] : [c.objects]).map((objects) => ({ ...c, objects })),
);

/** json_decode and json_last_error() in one call: [value, code]. */
function phpCall(c: (typeof CASES)[number]): PhpCall {
  const text = Buffer.from(toBytes(c.text)).toString('base64');
  const code = `$v = json_decode(base64_decode('${text}'), ${c.objects ? 'false' : 'true'}, ${c.depth ?? 512}, ${c.flags ?? 0}); return [${c.deep ? "$v === null ? null : 'decoded'" : '$v'}, json_last_error()];`;
  return { fn: '__eval', args: [code] };
}

const label = (c: (typeof CASES)[number]) =>
  `${JSON.stringify(c.text.length > 60 ? `${c.text.slice(0, 30)}...${c.text.slice(-10)}` : c.text)}${c.objects ? ' objects' : ''}${c.depth ? ` depth ${c.depth}` : ''}${c.flags ? ` flags ${c.flags}` : ''}`;

const ANSWERS = phpGolden('php/json/decode', CASES.map(phpCall), { labels: CASES.map(label) });

/**
 * PHP's [value, code] answer. Property names are strings in PHP, but the oracle lists them with
 * get_object_vars(), which gives a numeric one as an int: it is turned back into its name.
 */
function answer(i: number): { value: Tagged; code: number } {
  const r = ANSWERS[i]!;
  if (!r.ok || !r.value || typeof r.value !== 'object' || !('arr' in r.value)) throw new Error(`no answer: ${r.error}`);
  const [[, value], [, code]] = r.value.arr;
  return { value: names(value!), code: (code as { int: number }).int };
}

function names(t: Tagged): Tagged {
  if (t === null || typeof t !== 'object') return t;
  if ('arr' in t) return { arr: t.arr.map(([k, v]) => [k, names(v)]) };
  if ('obj' in t) return { obj: t.obj.map(([k, v]) => [String(k), names(v)]) };
  return t;
}

describe('json_decode, as PHP 8.2 answers', () => {
  CASES.forEach((c, i) => {
    it(label(c), () => {
      const php = answer(i);
      const r = parseJson(c.text, { objects: c.objects, depth: c.depth ?? 512, flags: c.flags ?? 0 });
      expect(r.ok ? 0 : r.error).toBe(php.code);
      const ours = jsonDecode(c.text, !c.objects, c.depth ?? 512, c.flags ?? 0);
      if (c.deep) expect(ours === null ? null : toTagged('decoded')).toEqual(php.value);
      else expect(toTagged(ours)).toEqual(php.value);
    });
  });
});

describe('variables given as JSON text are what json_decode($text, !$objects) gives', () => {
  CASES.forEach((c, i) => {
    if (c.depth !== undefined || c.flags !== undefined || c.deep) return;
    it(label(c), () => {
      const php = answer(i);
      const decoded: Value = php.code === 0 ? fromTagged(php.value) : null;
      if (!(decoded instanceof PhpArray || decoded instanceof PhpObject)) {
        expect(() => parseVarsJson(c.text, c.objects)).toThrow(VarsError);
        return;
      }
      const want = decoded instanceof PhpArray ? decoded.entries() : [...decoded.props];
      const got = [...parseVarsJson(c.text, c.objects)];
      expect(got.map(([k, v]) => [k, toTagged(v)])).toEqual(want.map(([k, v]) => [String(k), toTagged(v)]));
    });
  });

  it('names the error and where it is', () => {
    expect(() => parseVarsJson('{"a":"\\ud800"}', false)).toThrow(
      "the variables' JSON text: Single unpaired UTF-16 surrogate in unicode escape at offset 6",
    );
    expect(() => parseVarsJson('[1]', false)).not.toThrow();
    expect(() => parseVarsJson('"a"', false)).toThrow('the variables must be a JSON object');
  });
});

describe('past what PHP would do', () => {
  it('refuses nesting the JS stack cannot hold, whatever depth was asked for, with the depth error', () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(jsonDecode(deep(2_000), true, 100_000)).toBeInstanceOf(PhpArray);
    const r = parseJson(deep(50_000), { depth: 100_000 });
    expect(r).toMatchObject({ ok: false, error: 1 });
    expect(!r.ok && r.offset).toBeGreaterThan(1_000);
    expect(parseJson(deep(20_000), { depth: 100_000 })).toMatchObject({ ok: false, error: 1 });
  });

  it('takes json_decode defaults for options not given', () => {
    const r = parseJson('{"a":[1]}', { depth: undefined, objects: undefined });
    expect(r.ok && r.value instanceof PhpArray).toBe(true);
    expect(parseJson(`${'['.repeat(512)}${']'.repeat(512)}`)).toMatchObject({ ok: false, error: 1 });
  });
});
