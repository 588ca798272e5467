/**
 * json_encode walks the render's variables in place (lazy records and JavaScript arrays, not
 * converted): its output and error must be those of the same data converted to PhpArrays first,
 * the path the PHP golden cases (test/plugins/array/cases.ts) check against PHP 8.2.
 */
import { describe, expect, it } from 'vitest';
import { PhpArray, fromJS, type Value } from '../../../src/value/value.js';
import { jsonEncodeEx } from '../../../src/php/json/encode.js';
import { Prng } from '../../support/prng.js';

/** Every nested record settled into list or map storage, as a template that wrote to it would. */
function settled(v: Value): Value {
  if (v instanceof PhpArray) for (const [, x] of v.entries()) settled(x);
  return v;
}

const FLAGS = [
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

const STRINGS = [
  '',
  'plain',
  '山田太郎 "x" & <y>',
  'emoji 😀 ok',
  'a/b\\c"d',
  "<tag attr='x'>",
  '\u2028\u2029',
  'ctrl \x00\x01\x1f\x7f\b\f\n\r\t',
  '123',
  ' 42',
  '1e3',
  'lone \ud800 high',
  'lone \udc00 low',
  'end \ud83d',
];
const NUMBERS = [0, -0, -17, 1.5, 0.1, 1e-5, 0.0001, 1e15, 1e16, 1e17, 2 ** 53 + 2, 1e20, 123456.789, NaN, Infinity];
const KEYS = ['a', 'title', '', '0', '1', '-1', '01', '2', '日本', 'x/y', '"q"', '1.5', '9223372036854775808'];

function plain(r: Prng, depth: number): unknown {
  const kind = r.int(0, depth > 3 ? 4 : 7);
  switch (kind) {
    case 0:
      return r.pick(STRINGS);
    case 1:
      return r.pick(NUMBERS);
    case 2:
      return r.pick([true, false, null, undefined, 12n, 2n ** 70n, new Date(86_400_000), () => 1]);
    case 3:
    case 4:
      return r.pick(STRINGS) + r.int(0, 9);
    case 5:
      return Array.from({ length: r.int(0, 4) }, () => plain(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      const n = r.int(0, 4);
      // Mostly name keys, now and then an integer key (which makes PHP's array a list or a map).
      for (let i = 0; i < n; i++) o[r.chance(0.8) ? r.pick(KEYS.slice(0, 3)) + i : r.pick(KEYS)] = plain(r, depth + 1);
      return o;
    }
  }
}

describe('json_encode of plain data read in place', () => {
  it('matches the converted arrays for 400 random values under every flag set', () => {
    for (let n = 0; n < 400; n++) {
      // The same data made twice from its seed (functions cannot be cloned).
      const data = () => plain(new Prng(3501 + n), 0);
      for (const flags of FLAGS) {
        for (const depth of [512, 2]) {
          const inPlace = jsonEncodeEx(fromJS(data()), flags, depth);
          const converted = jsonEncodeEx(settled(fromJS(data())), flags, depth);
          expect(inPlace, JSON.stringify({ n, flags, depth })).toEqual(converted);
        }
      }
    }
  });

  it('leaves the record unconverted, and a later read sees the same values', () => {
    const a = fromJS({ items: [{ id: 1, t: 'x' }], n: 1.5 }) as PhpArray;
    expect(jsonEncodeEx(a).json).toBe('{"items":[{"id":1,"t":"x"}],"n":1.5}');
    expect(a.recordSource()).not.toBeNull();
    expect(((a.get('items') as PhpArray).get(0) as PhpArray).get('t')).toBe('x');
  });

  it('writes an object with integer keys as PHP orders them, and an empty one as []', () => {
    expect(jsonEncodeEx(fromJS({ 1: 'b', 0: 'a' })).json).toBe('["a","b"]');
    expect(jsonEncodeEx(fromJS({ x: 1, 2: 'b' })).json).toBe('{"2":"b","x":1}');
    expect(jsonEncodeEx(fromJS({ a: {}, b: [] })).json).toBe('{"a":[],"b":[]}');
  });
});
