/**
 * json_encode's JSON.stringify path for plain records (src/php/json/stringify-plain.ts): where it
 * applies, its text must be the encoder's walk over the same data converted first (the path the
 * PHP golden cases check); where it cannot match PHP it must decline.
 */
import { describe, expect, it } from 'vitest';
import { PhpArray, fromJS, type Value } from '../../../src/value/value.js';
import { jsonEncodeEx } from '../../../src/php/json/encode.js';
import { stringifyPlain } from '../../../src/php/json/stringify-plain.js';

function settled(v: Value): Value {
  if (v instanceof PhpArray) for (const [, x] of v.entries()) settled(x);
  return v;
}

const FLAGS = [0, 64, 256, 256 | 2048, 64 | 256, 512, 1048576, 2097152, 2097152 | 256];
const EDGES = [
  'https://example.jp/a/b',
  '<b> & \'q\' "d" \\',
  '山田 "太郎" & <1>',
  'emoji 😀 ok',
  '\u2028 and \u2029',
  'é ÿ \u0080 \u07ff \uffff',
  'ctrl \x00\x01\x1f\x7f\b\f\n\r\t',
  'text \\ud800 not a surrogate',
];

describe('json_encode of plain records by JSON.stringify', () => {
  it('takes the edges as the walk writes them, under each flag set it accepts', () => {
    const data = () => ({
      s: EDGES,
      n: [0, -0, -17, 1.5, 0.1, 0.0001, 123456.789, 1e15 + 0.5, 2 ** 53 - 1, -(2 ** 53 - 1)],
      'k/日本': { t: true, f: false, z: null, e: [] },
    });
    for (const flags of FLAGS) {
      const rec = (fromJS(data()) as PhpArray).recordSource()!;
      // The literal "\ud800" text above sends the whole answer the long way; without it, this path.
      const direct = stringifyPlain({ ...rec, s: EDGES.slice(0, -1) }, flags, 512);
      expect(direct, String(flags)).not.toBeNull();
      const walk = jsonEncodeEx(settled(fromJS({ ...data(), s: EDGES.slice(0, -1) })), flags).json;
      expect(direct, String(flags)).toBe(walk);
      expect(jsonEncodeEx(fromJS(data()), flags).json, String(flags)).toBe(
        jsonEncodeEx(settled(fromJS(data())), flags).json,
      );
    }
  });

  it('declines what JSON.stringify does not write as PHP does', () => {
    const no = (x: Record<string, unknown>, flags = 0, depth = 512) =>
      expect(stringifyPlain(x, flags, depth), Object.keys(x).join()).toBeNull();
    no({ s: 'lone \ud800' });
    no({ s: 'end \ud83d' });
    no({ 0: 'a' });
    no({ '-1': 'a' });
    no({ a: {} });
    no({ f: 1e20 });
    no({ f: 1e-5 });
    no({ f: NaN });
    no({ f: 2 ** 53 });
    no({ f: 2 ** 55 });
    no({ u: undefined });
    no({ b: 12n });
    no({ d: new Date(0) });
    no({ l: [1, undefined] });
    no({ a: 1 }, 1); // JSON_HEX_TAG
    no({ a: 1 }, 16); // JSON_FORCE_OBJECT
    no({ a: 1 }, 128); // JSON_PRETTY_PRINT
    no({ a: 1 }, 32); // JSON_NUMERIC_CHECK
    no({ a: 1 }, 1024); // JSON_PRESERVE_ZERO_FRACTION
    no({ a: [1] }, 0, 1);
  });

  it('declines while Object.prototype lends an enumerable key, which for...in would list', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.lent = 1;
    try {
      expect(stringifyPlain({ a: 1 }, 0, 512)).toBeNull();
      // An empty object is PHP's empty array: the walk lists own keys only.
      expect(jsonEncodeEx(fromJS({ a: {}, b: [{}] })).json).toBe('{"a":[],"b":[[]]}');
    } finally {
      delete proto.lent;
    }
    expect(stringifyPlain({ a: 1 }, 0, 512)).toBe('{"a":1}');
  });

  it('reads a backslash before "ud8" in the text as a possible lone surrogate', () => {
    // `includes('\\ud')` finds the text's `\\ud800`, the expression then matches it: the walk.
    expect(stringifyPlain({ s: 'a\\ud800' }, 0, 512)).toBeNull();
    expect(jsonEncodeEx(fromJS({ s: 'a\\ud800' })).json).toBe('{"s":"a\\\\ud800"}');
    // The prefix found but no surrogate after it (`\\ud7ff`), and a control character's `\\u0001`: this path.
    expect(stringifyPlain({ s: 'a\x01\\ud7ff' }, 0, 512)).toBe('{"s":"a\\u0001\\\\ud7ff"}');
  });

  it('leaves the depth error and the lone surrogate to the walk', () => {
    expect(jsonEncodeEx(fromJS({ a: [[1]] }), 0, 2)).toEqual({ json: false, error: 1 });
    expect(jsonEncodeEx(fromJS({ a: [[1]] }), 512, 2)).toEqual({ json: '{"a":[[1]]}', error: 0 });
    expect(jsonEncodeEx(fromJS({ s: 'x\ud800' }))).toEqual({ json: false, error: 5 });
    expect(jsonEncodeEx(fromJS({ s: 'x\ud800' }), 2097152).json).toBe('{"s":"x\\ufffd"}');
  });
});
