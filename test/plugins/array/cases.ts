/**
 * The table of cases compared with live php: each one runs PHP code on `$args` and the
 * same operation here. Expected values are never written by hand.
 */
import { PhpArray, PhpFloat, PhpObject, float, fromJS, type Value } from '../../../src/value/value.js';
import { fromBytes } from '../../../src/value/bytes.js';
import type { OracleCall } from '../../support/php-oracle.js';
import { assoc, callModifier, list, phpEval } from '../../support/php-call.js';
import { plugins as arrayPlugins } from '../../../src/plugins/array/index.js';
import { plugins as jsonPlugins } from '../../../src/plugins/json/index.js';
import type { ModifierPlugin } from '../../../src/plugins/types.js';
import { jsonEncode } from '../../../src/php/json/encode.js';
import { jsonDecode } from '../../../src/php/json/decode.js';
import { phpSort, type SortKind } from '../../../src/php/array/sort.js';
import { arrayPop, arrayPush, arrayShift } from '../../../src/php/array/stack.js';
import {
  arrayDiffAssoc,
  arrayDiffKey,
  arrayIntersect,
  arrayIntersectAssoc,
  arrayIntersectKey,
} from '../../../src/php/array/set-ops.js';
import { explode, implode } from '../../../src/php/array/join.js';
import { urlencode, rawurlencode } from '../../../src/php/array/query.js';

export interface Case {
  name: string;
  php: OracleCall;
  ours: () => Value;
}

const mods = new Map<string, ModifierPlugin>();
for (const p of [...arrayPlugins, ...jsonPlugins]) if (p.kind === 'modifier') mods.set(p.name, p);
const mod = (name: string) => {
  const p = mods.get(name);
  if (!p) throw new Error(`no modifier ${name}`);
  return p;
};

export const cases: Case[] = [];

/** A PHP function that is also a modifier: `fn(input, ...args)` against `run(input, args)`. */
function phpFn(name: string, input: Value, ...args: Value[]): void {
  cases.push({
    name: `${name}(${show([input, ...args])})`,
    php: phpEval([input, ...args], `return ${name}(...$args);`),
    ours: () => callModifier(mod(name), input, ...args),
  });
}

function custom(name: string, args: Value[], body: string, ours: () => Value): void {
  cases.push({ name: `${name}(${show(args)})`, php: phpEval(args, body), ours });
}

function plain(x: Value): unknown {
  if (x instanceof PhpArray) return x.entries().map(([k, y]) => [k, plain(y)]);
  if (x instanceof PhpFloat) return `${x.value}.0`;
  if (x instanceof PhpObject) return { object: Array.from(x.props.entries()).map(([k, y]) => [k, plain(y)]) };
  return x;
}

function show(v: Value[]): string {
  const s = JSON.stringify(v.map(plain));
  return s.length > 120 ? s.slice(0, 117) + '...' : s;
}

// A deterministic generator for the larger mixed arrays (zend_sort's quicksort branch).
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}
function mixedList(seed: number, n: number): PhpArray {
  const r = rng(seed);
  const pool: (() => Value)[] = [
    () => Math.floor(r() * 20) - 5,
    () => String(Math.floor(r() * 20)),
    () => ['a', 'b', 'B', 'abc', '10a', ' 5', '1e1', '', 'あ', 'z'][Math.floor(r() * 10)],
    () => float(Math.floor(r() * 10)),
    () => Math.round(r() * 1000) / 100,
    () => [null, true, false][Math.floor(r() * 3)],
  ];
  const out: Value[] = [];
  for (let i = 0; i < n; i++) out.push(pool[Math.floor(r() * pool.length)]());
  return PhpArray.fromList(out);
}
function intList(seed: number, n: number): PhpArray {
  const r = rng(seed);
  return PhpArray.fromList(Array.from({ length: n }, () => Math.floor(r() * 50)));
}

// ---- json_encode -------------------------------------------------------------------
const jsonValues: Value[] = [
  null,
  true,
  false,
  0,
  -17,
  9007199254740991,
  1.5,
  float(1),
  float(-0),
  0.1,
  0.30000000000000004,
  1e15,
  float(1e16),
  float(1e17),
  float(1.5e300),
  1e-5,
  0.0001,
  -1.5e-7,
  123456.789,
  '',
  'plain',
  '山田太郎',
  'emoji 😀 ok',
  'a/b\\c"d',
  "<tag attr='x'> & more",
  '\u2028\u2029',
  'ctrl \x00\x01\x1f\x7f\b\f\n\r\t',
  '123',
  '12.50',
  ' 42',
  '1e3',
  '0x1A',
  'é',
  fromBytes(new Uint8Array([0x61, 0xff, 0x62])),
  fromBytes(new Uint8Array([0xe6, 0x97, 0x41])),
  fromBytes(new Uint8Array([0xc3])),
  list(),
  list(1, 2, 3),
  assoc([1, 'a'], [2, 'b']),
  assoc([0, 'a'], [2, 'b']),
  assoc(['k', list(1, assoc(['x', null]))], ['', 'empty key'], [5, float(2)]),
  assoc(['日本', '語'], ['n', list()]),
  list(list(list(list()))),
  // The kept \\u escapes of BMP characters (encode.ts `unicodeEscape`): one character, runs at
  // either end, a run repeated.
  '日',
  'a日',
  '日a',
  '東京/大阪 "x" 東京',
];
const jsonFlags = [
  0,
  1 | 2 | 4 | 8,
  16,
  32,
  64,
  128,
  256,
  256 | 2048,
  1024,
  32 | 1024,
  1048576,
  2097152,
  2097152 | 256,
  512,
  64 | 128 | 256,
];
jsonValues.forEach((v, i) => {
  const flags = i % 3 === 0 ? jsonFlags : jsonFlags.filter((_, j) => (i + j) % 4 === 0);
  for (const f of flags) phpFn('json_encode', v, f);
});
// More distinct characters than encode.ts keeps escapes for: the table is cleared mid-string.
phpFn('json_encode', Array.from({ length: 4200 }, (_, i) => String.fromCharCode(0x4e00 + i)).join(''), 0);
phpFn('json_encode', list(list(list(1))), 0, 2);
phpFn('json_encode', list(list(list(1))), 0, 3);
phpFn('json_encode', list(list(list(1))), 512, 2);
phpFn('json_encode', list(), 0, 0);
phpFn('json_encode', 1, 0, 0);
phpFn('json_encode', list(1, NaN, 'x'), 512);
phpFn('json_encode', list(1, Infinity));
{
  const o = new PhpObject();
  o.set('a', 1);
  o.set('0', list('x'));
  o.set('empty', new PhpObject());
  phpFn('json_encode', o);
  phpFn('json_encode', o, 128);
  phpFn('json_encode', list(o, new PhpObject()), 16);
}

// The render's variables as they come in (a lazy record, fresh for our side each call): json_encode
// writes these by JSON.stringify and escapes `/` and non-ASCII after it (stringify-plain.ts).
{
  const record = () => ({
    url: 'https://example.jp/items/5000/detail',
    title: '東京 "x" & <b> \'q\' \\ 😀',
    lines: ['\u2028\u2029', 'é\u0080\u07ff\uffff', 'ctrl \x00\x1f\x7f\b\f\n\r\t'],
    n: [0, -17, 1.5, 0.1, 0.0001, 123456.789, 1e15 + 0.5, 9007199254740991],
    'k/日本': { t: true, f: false, z: null, e: [] },
  });
  for (const flags of [0, 64, 256, 256 | 2048, 64 | 256 | 512]) {
    custom(
      `json_encode of a plain record, flags ${flags}`,
      [fromJS(record()), flags],
      'return json_encode(...$args);',
      () => callModifier(mod('json_encode'), fromJS(record()), flags),
    );
  }
}

// ---- json_decode -------------------------------------------------------------------
const jsonTexts = [
  '{"b":1,"a":2,"1":3,"0":4}',
  '{"a":1,"a":2,"b":3}',
  '[1,"2",3.0,-0,-0.0,1e2,1E-2,0.1]',
  '9223372036854775807',
  '-9223372036854775808',
  '9223372036854775808',
  '12345678901234567890',
  '"\\u65e5\\u672c\\ud83d\\ude00\\/"',
  '"\\ud800"',
  '"\\udc00x"',
  '"tab\there"',
  '  {"x" : [ true , false , null ] }  ',
  '',
  ' ',
  'TRUE',
  'nul',
  '[1,]',
  '{"a":1,}',
  '01',
  '1.',
  '.5',
  '-',
  '"abc',
  '{"\\u0000a":1}',
  '{"":1,"-0":2,"01":3,"9223372036854775808":4}',
  '[[[]]]',
  '{"a":{"b":{"c":{}}}}',
  '"日本語"',
  '1e400',
  '[1] x',
  '"\\x"',
  '{"a" 1}',
];
for (const t of jsonTexts) {
  custom('json_decode/assoc', [t], 'return json_decode($args[0], true);', () => callModifier(mod('json_decode'), t));
  custom('json_decode/object', [t], 'return json_decode($args[0], false);', () =>
    callModifier(mod('json_decode'), t, false),
  );
}
for (const [t, depth] of [
  ['[1]', 1],
  ['[1]', 2],
  ['[[1]]', 2],
  ['[[1]]', 3],
  ['{"a":{"b":1}}', 2],
  ['1', 1],
] as const) {
  custom('json_decode/depth', [t, depth], 'return json_decode($args[0], true, $args[1]);', () =>
    jsonDecode(t, true, depth),
  );
}
for (const bytes of [
  [0x22, 0xff, 0x22],
  [0x22, 0x61, 0xc3, 0x22],
  [0x5b, 0x22, 0xe6, 0x97, 0x22, 0x5d],
]) {
  const t = fromBytes(new Uint8Array(bytes));
  custom('json_decode/utf8', [t], 'return json_decode($args[0], true);', () => jsonDecode(t, true));
  custom('json_decode/utf8-ignore', [t], 'return json_decode($args[0], true, 512, JSON_INVALID_UTF8_IGNORE);', () =>
    jsonDecode(t, true, 512, 1048576),
  );
  custom('json_decode/utf8-subst', [t], 'return json_decode($args[0], true, 512, JSON_INVALID_UTF8_SUBSTITUTE);', () =>
    jsonDecode(t, true, 512, 2097152),
  );
}
custom(
  'json_decode/bigint-string',
  ['[12345678901234567890]'],
  'return json_decode($args[0], true, 512, JSON_BIGINT_AS_STRING);',
  () => jsonDecode('[12345678901234567890]', true, 512, 2),
);
// round trips through both implementations
for (const v of jsonValues.filter((x) => jsonEncode(x) !== false)) {
  custom('json round trip', [v], 'return json_decode(json_encode($args[0]), true);', () =>
    jsonDecode(jsonEncode(v) as string, true),
  );
}

// ---- sorting -----------------------------------------------------------------------
const sortInputs: PhpArray[] = [
  list(3, '10', 1, '9', 2.5),
  list('b', 'a', 'B', 'A', 'あ', 'い', 'a'),
  list('10', '9', '1e1', '010', 'abc', ''),
  list(true, null, false, 0, '', '0', 'a'),
  list(1, '1', 1.0, '01', '1.0', true),
  assoc(['x', 3], ['y', 1], ['z', 2], [10, 1], [2, 3]),
  assoc(['b', 1], ['a', 2], [10, 3], [9, 4], ['10', 5], ['1e1', 6], ['', 7], ['-5', 8], ['B', 9]),
  list(list(1, 2), list(1), list(0, 5), 'a', 3),
  mixedList(1, 12),
  mixedList(2, 17),
  mixedList(3, 40),
  mixedList(4, 64),
  intList(5, 30),
  intList(6, 100),
  list(),
  list('only'),
];
const sortKinds: SortKind[] = ['sort', 'rsort', 'asort', 'arsort', 'ksort', 'krsort'];
sortInputs.forEach((arr, i) => {
  for (const kind of sortKinds) {
    const flagsList = i < 8 ? [0, 1, 2, 2 | 8] : [0];
    for (const flags of flagsList) {
      custom(`${kind}/${flags}`, [arr, flags], `$a = $args[0]; $r = ${kind}($a, $args[1]); return [$r, $a];`, () =>
        list(callModifier(mod(kind), arr, flags), phpSort(arr, kind, flags)),
      );
    }
  }
  custom('rcms_sort/rcms_rsort', [arr], '$a = $args[0]; $b = $args[0]; sort($a); rsort($b); return [$a, $b];', () =>
    list(callModifier(mod('rcms_sort'), arr), callModifier(mod('rcms_rsort'), arr)),
  );
});

// ---- array functions ------------------------------------------------------------------
const m1 = assoc(['a', 1], ['b', '2'], [5, null], ['c', 1.0], ['d', list('x')], [6, '1']);
const l1 = list('a', 'b', 'c', 'd', 'e');
const rows = list(
  assoc(['id', 3], ['name', 'Alice'], ['tag', 't1']),
  assoc(['id', '5'], ['name', 'Bob']),
  assoc(['name', 'Carol'], ['id', 1.7]),
  'not a row',
  assoc(['id', true], ['name', null]),
);
phpFn('array_keys', m1);
phpFn('array_keys', m1, 1);
phpFn('array_keys', m1, 1, true);
phpFn('array_keys', m1, null);
phpFn('array_keys', 'str');
phpFn('array_values', m1);
phpFn('array_values', 5);
phpFn('array_merge', m1, l1, assoc(['a', 'new'], [0, 'zero']));
phpFn('array_merge', list(), list());
phpFn('array_merge', l1);
phpFn('array_merge', l1, 'x');
for (const [o, len, pk] of [
  [1, null, false],
  [1, 2, true],
  [-2, null, false],
  [-10, 2, false],
  [10, null, false],
  [2, -1, false],
  [0, 0, false],
  [3, 100, true],
  ['1', '2', 0],
] as const) {
  phpFn('array_slice', m1, o, len, pk);
  phpFn('array_slice', l1, o, len, pk);
}
phpFn('array_slice', l1, 'x');
phpFn('array_slice', l1, 1.5);
phpFn('array_reverse', m1);
phpFn('array_reverse', m1, true);
phpFn('array_reverse', l1);
for (const arr of [
  list('a', 'b', 'a', 1, '1', 1.0, true, null, ''),
  m1,
  list(list(1), list(1), 'Array'),
  list(1.5, '1.5', 1.5, '01.5'),
]) {
  phpFn('array_unique', arr);
  phpFn('array_unique', arr, 0);
  phpFn('array_unique', arr, 1);
}
phpFn('array_unique', mixedList(7, 30), 0);
for (const needle of ['2', 2, 1, '1', null, 'x', true, 0, '1.0', list('x')] as Value[]) {
  phpFn('array_search', needle, m1);
  phpFn('array_search', needle, m1, true);
  cases.push({
    name: `in_array(${show([needle])})`,
    php: phpEval([needle, m1], 'return [in_array($args[0], $args[1]), in_array($args[0], $args[1], true)];'),
    ours: () => list(callModifier(mod('in_array'), needle, m1), callModifier(mod('in_array'), needle, m1, true)),
  });
}
for (const key of ['a', 5, '5', 'x', null, 1.7, true, '', '05'] as Value[]) {
  custom(
    'array_key_exists',
    [key, assoc(['a', null], [5, 1], ['', 2], [1, 3])],
    'return array_key_exists($args[0], $args[1]);',
    () => callModifier(mod('array_key_exists'), key, assoc(['a', null], [5, 1], ['', 2], [1, 3])),
  );
}
phpFn('array_column', rows, 'name');
phpFn('array_column', rows, 'name', 'id');
phpFn('array_column', rows, null, 'name');
phpFn('array_column', rows, 'id', 'tag');
phpFn('array_column', list(list('a', 'b'), list('c', 'd')), 1, 0);
phpFn('array_filter', list('a', '', '0', 0, 0.0, null, false, list(), list(0), ' ', '0.0'));
phpFn('array_filter', m1);
for (const arr of [
  list(1, 2, 3),
  list(1, '2', 3.5),
  list('abc', '5 apples', ' 7', '1e2'),
  list(list(1), 2, true, null),
  list(2 ** 63, 1),
  list(),
  list(0.1, 0.2),
]) {
  phpFn('array_sum', arr);
}
phpFn('array_diff', list(1, '1', 2, 'x'), list('1'));
phpFn('array_diff', assoc(['x', '1'], ['y', '2'], ['z', '3']), list('2'), assoc(['q', '3']));
phpFn('array_diff', list(1.0, '1', true, null, ''), list('1'));
custom(
  'array_intersect',
  [list('a', 'b', 'c', 'b'), list('b', 'c'), list('c', 'b', 'x')],
  'return array_intersect(...$args);',
  () => arrayIntersect(list('a', 'b', 'c', 'b'), [list('b', 'c'), list('c', 'b', 'x')]),
);
const k1 = assoc(['a', 1], ['b', 2], [0, 3], ['1', 4]);
const k2 = assoc(['a', '1'], [0, 9], ['c', 2], [1, '4']);
custom('array_diff_key', [k1, k2], 'return array_diff_key(...$args);', () => arrayDiffKey(k1, [k2]));
custom('array_intersect_key', [k1, k2], 'return array_intersect_key(...$args);', () => arrayIntersectKey(k1, [k2]));
custom('array_intersect_assoc', [k1, k2], 'return array_intersect_assoc(...$args);', () =>
  arrayIntersectAssoc(k1, [k2]),
);
custom('array_diff_assoc', [k1, k2], 'return array_diff_assoc(...$args);', () => arrayDiffAssoc(k1, [k2]));
for (const arr of [l1, m1, list(), assoc(['x', 1], [3, 'y'], ['z', 2])]) {
  custom('array_pop', [arr], '$a = $args[0]; $r = array_pop($a); return [$r, $a];', () => {
    const m = arrayPop(arr);
    return list(m.result, m.array);
  });
  custom('array_shift', [arr], '$a = $args[0]; $r = array_shift($a); return [$r, $a];', () => {
    const m = arrayShift(arr);
    return list(m.result, m.array);
  });
  custom('array_push', [arr], '$a = $args[0]; $r = array_push($a, "p", 2); return [$r, $a];', () => {
    const m = arrayPush(arr, ['p', 2]);
    return list(m.result, m.array);
  });
  phpFn('array_pop', arr);
  phpFn('array_shift', arr);
  phpFn('array_push', arr, 'v');
  phpFn('key', arr);
}
// range (PHP 8.2 rules)
const ranges: Value[][] = [
  [1, 5],
  [5, 1],
  [0, 10, 3],
  [0, 1, 0.25],
  [1, 2, 0.3],
  [10, 0, -2.5],
  ['a', 'e'],
  ['e', 'a', 2],
  ['A', 'z', 10],
  ['1', '3'],
  ['1.5', 3],
  ['a', 5],
  [1.0, 3],
  [float(1), float(3)],
  [0, 0],
  ['aa', 'cc'],
  [1, 3, '1'],
  [1, 3, '0.5'],
  [3, 3, 0],
  [1, 2, 0],
  [1, 5, 10],
  ['5', 'a'],
  [-3, 3, 2],
];
for (const r of ranges) phpFn('range', ...(r as [Value, ...Value[]]));
// implode / explode
for (const [sep, arr] of [
  [',', list('a', 1, 1.5, true, false, null, float(2), 0.1)],
  ['', l1],
  ['・', list('日', '本')],
  [', ', m1],
] as const) {
  custom('implode', [sep, arr], 'return implode($args[0], $args[1]);', () => implode(sep, arr));
}
for (const [d, s, lim] of [
  [',', 'a,b,,c', undefined],
  [',', '', undefined],
  ['ab', 'xabyabab', undefined],
  [',', 'a,b,c,d', 2],
  [',', 'a,b,c,d', -1],
  [',', 'a,b,c', 0],
  ['、', '東京、大阪、', undefined],
  [',', 'a,b', -5],
] as const) {
  const args: Value[] = lim === undefined ? [d, s] : [d, s, lim];
  custom('explode', args, 'return explode(...$args);', () => explode(d, s, lim));
}
// http_build_query, urlencode
const q = assoc(
  ['q', 'a b&c=d/é'],
  ['n', 5],
  ['f', 0.1],
  ['t', true],
  ['no', false],
  ['nil', null],
  [0, 'zero'],
  ['list', list('x', list('y', 'z'))],
  ['m', assoc(['k', 'v'], [3, 'w'])],
  ['e', list()],
);
phpFn('http_build_query', q);
phpFn('http_build_query', q, 'p_');
phpFn('http_build_query', q, '', '&amp;');
phpFn('http_build_query', q, 'n', ';', 2);
phpFn('http_build_query', list('a', 'b'), 'item');
for (const s of ['a b+c', "日本語 ~-_.!*'()", '']) {
  custom('urlencode', [s], 'return [urlencode($args[0]), rawurlencode($args[0])];', () =>
    list(urlencode(s), rawurlencode(s)),
  );
}
// parse_url
const urls = [
  'https://user:pw@example.com:8080/p/a/t/h?query=1&x=y#frag',
  'http://example.com',
  'http://example.com/',
  '//example.com/path',
  '/just/a/path?q',
  'example.com:80',
  'example.com:80/x',
  'mailto:someone@example.com',
  'http://[::1]:8080/x',
  'http://host:99999/',
  'http://host:/x',
  'http:///x',
  'file:///etc/passwd',
  'file:///c:/dir/file.txt',
  'http://a@b@c/',
  'http://example.com?#',
  'http://example.com#a?b',
  'a:65535',
  ':80',
  'tel:+1-234',
  'http://日本.jp/パス?キー=値',
  'foo://bar:0/baz',
  '?only=query',
  '#only',
  '',
  'http://user@:80',
  'x:/y',
  'http://example.com:8080:9090/',
];
for (const u of urls) {
  phpFn('parse_url', u);
  for (const c of [0, 1, 2, 5, 6]) phpFn('parse_url', u, c);
}
phpFn('parse_url', 'http://x', 9);
// pathinfo
for (const p of [
  '/files/report.tar.gz',
  'report',
  '/dir/',
  '.htaccess',
  'a/b/c.',
  '',
  '/',
  'dir/file.JPG',
  '日本/資料.pdf',
  '//x//y.z',
  'no/ext',
]) {
  phpFn('pathinfo', p);
  for (const f of [1, 2, 4, 8, 3]) phpFn('pathinfo', p, f);
}
// is_array, count
for (const v of [list(), 'a', null, new PhpObject()]) phpFn('is_array', v);
// Only arrays: the platform's count of anything else is 0 where PHP 8 throws.
const tree = list(1, list(2, list(3, list())), assoc(['k', list('x', 'y')]), new PhpObject());
for (const mode of [0, 1, '1', true, null, 1.5, 2, -1, 'x', list()]) phpFn('count', tree, mode);
phpFn('count', list(), 1);
// The explode modifier's limit (the input is the separator, as PHP's first argument).
for (const lim of [2, '2', -1, 0, null, 1.5, 'x', list()]) phpFn('explode', '::', 'a::b::c', lim);
