/**
 * The bridge's value format carries 64-bit ints exactly (docs/decisions.md D70): an int past
 * 2^53 as `{ i: digits }`, an int key past 2^53 as its digits, through the JSON text that
 * crosses between isolate and host, both ways.
 */
import { describe, expect, it } from 'vitest';
import { TransferError, decodeAnswer, decodeValue, encodeAnswer, encodeValue } from '../../src/protocol/transfer.js';
import { INT_MAX, INT_MIN } from '../../src/value/int64.js';
import { PhpArray, PhpFloat, PhpObject, type Value } from '../../src/value/value.js';

const viaJson = (v: Value): Value => decodeValue(JSON.parse(JSON.stringify(encodeValue(v))));

describe('64-bit ints across the bridge', () => {
  it('keeps every int exact, in its one form', () => {
    for (const v of [
      9007199254740991,
      -9007199254740991,
      9007199254740992n,
      9007199254740993n,
      -9007199254740993n,
      INT_MAX,
      INT_MIN,
      1541815603606036480n,
    ]) {
      expect(viaJson(v)).toBe(v);
    }
    expect(encodeValue(9007199254740993n)).toEqual({ i: '9007199254740993' });
    expect(encodeValue(42)).toBe(42);
  });

  it('keeps floats floats, also integral ones past 2^53', () => {
    for (const f of [new PhpFloat(2 ** 53), new PhpFloat(2 ** 63), new PhpFloat(1e20)]) expect(viaJson(f)).toEqual(f);
    // A bare integral number past 2^53 is a float in the value model, and stays one.
    expect(viaJson(1e20)).toEqual(new PhpFloat(1e20));
    expect(viaJson(0.5)).toBe(0.5);
  });

  it('keeps int keys past 2^53 as int keys, in order', () => {
    const a = PhpArray.fromEntries([
      ['b', 1],
      [9007199254740993n, 2n ** 60n],
      [INT_MIN, 'min'],
      ['9223372036854775808', 'text key'],
    ]);
    const back = viaJson(a) as PhpArray;
    expect(back.keys()).toEqual(['b', 9007199254740993n, INT_MIN, '9223372036854775808']);
    expect(back.get('9007199254740993')).toBe(2n ** 60n);
    const o = new PhpObject();
    o.set('id', 1541815603606036480n);
    expect((viaJson(o) as PhpObject).get('id')).toBe(1541815603606036480n);
  });

  it('refuses digits that are not an int past 2^53 within 64 bits', () => {
    for (const digits of [
      '12',
      '9007199254740991',
      '9223372036854775808',
      '-9223372036854775809',
      '0009007199254740993',
      '9007199254740993.0',
      ' 9007199254740993',
      '1e20',
    ]) {
      expect(() => decodeValue({ i: digits }), digits).toThrow(TransferError);
    }
    expect(() => decodeValue({ i: 2 ** 60 })).toThrow(TransferError);
  });
});

describe('lists across the bridge', () => {
  it('sends a list as its values alone, any other array as pairs, and reads each back the same', () => {
    const list = PhpArray.fromList(['a', 1, new PhpFloat(2), PhpArray.fromList([true, null])]);
    expect(encodeValue(list)).toEqual({ l: ['a', 1, { f: 2 }, { l: [true, null] }] });
    expect(viaJson(list)).toEqual(list);
    // Keys 0, 1 in another order, or one missing, are no list: pairs keep them.
    const shuffled = PhpArray.fromEntries([
      [1, 'b'],
      [0, 'a'],
    ]);
    expect(encodeValue(shuffled)).toEqual({
      a: [
        [1, 'b'],
        [0, 'a'],
      ],
    });
    expect((viaJson(shuffled) as PhpArray).keys()).toEqual([1, 0]);
    const gap = PhpArray.fromEntries([
      [0, 'a'],
      [2, 'c'],
    ]);
    expect((viaJson(gap) as PhpArray).keys()).toEqual([0, 2]);
    expect(encodeValue(PhpArray.empty())).toEqual({ l: [] });
    // A host's answer too, where a list holds what plain data cannot carry.
    const odd = PhpArray.fromList([new PhpFloat(1), 'a', PhpArray.fromList([2])]);
    expect(encodeAnswer(odd)).toEqual({ l: [{ f: 1 }, 'a', { p: [2] }] });
    expect(decodeAnswer(JSON.parse(JSON.stringify(encodeAnswer(odd))))).toEqual(odd);
    // A list read back takes the next int key after its last, as PHP's does.
    const back = decodeValue({ l: ['x'] }) as PhpArray;
    back.push('y');
    expect(back.entries()).toEqual([
      [0, 'x'],
      [1, 'y'],
    ]);
  });

  it('refuses a list that is not an array, and checks each of its values', () => {
    for (const bad of [{ l: 'x' }, { l: { 0: 'x' } }, { l: [{ p: 1 }] }, { l: [[0, 'x']] }, { l: [], a: [] }])
      expect(() => decodeValue(bad), JSON.stringify(bad)).toThrow(TransferError);
  });
});

describe("a host's answer: plain data where it carries the value exactly", () => {
  const answer = (v: Value) => JSON.parse(JSON.stringify(encodeAnswer(v))) as unknown;
  /** Every key, value and type, in order: what two values must agree on. */
  const shape = (v: Value): unknown =>
    v instanceof PhpArray
      ? ['array', v.entries().map(([k, x]) => [typeof k, String(k), shape(x)])]
      : v instanceof PhpObject
        ? ['object', Array.from(v.props).map(([k, x]) => [k, shape(x)])]
        : v instanceof PhpFloat
          ? ['float', v.value]
          : [typeof v, typeof v === 'bigint' ? String(v) : v];
  const rec = (entries: [string | number | bigint, Value][]) => PhpArray.fromEntries(entries);

  it('sends lists and arrays of names as plain data, and reads them back the same', () => {
    const v = rec([
      ['errors', PhpArray.fromList([])],
      [
        'list',
        PhpArray.fromList([
          rec([
            ['id', 1],
            ['subject', '日本語'],
            ['score', 0.5],
            ['tags', PhpArray.fromList(['a'])],
          ]),
        ]),
      ],
      ['01', 'not an int key'],
      ['none', null],
    ]);
    const t = answer(v);
    expect(t).toEqual({
      p: {
        errors: [],
        list: [{ id: 1, subject: '日本語', score: 0.5, tags: ['a'] }],
        '01': 'not an int key',
        none: null,
      },
    });
    expect(shape(decodeAnswer(t))).toEqual(shape(v));
  });

  it('keeps pairs around what plain data cannot carry, and plain data inside them', () => {
    const inner = rec([['k', 'v']]);
    for (const odd of [
      new PhpFloat(2),
      9007199254740993n,
      rec([
        [3, 'x'],
        [1, 'y'],
      ]),
      new PhpObject(),
      rec([['__proto__', 1]]),
    ]) {
      const v = rec([
        ['odd', odd],
        ['inner', inner],
      ]);
      const t = answer(v) as { a: [string, unknown][] };
      expect(t.a[1]).toEqual(['inner', { p: { k: 'v' } }]);
      expect(shape(decodeAnswer(t))).toEqual(shape(v));
    }
  });

  it('wraps every level above a value plain data cannot carry, and only those', () => {
    let v: Value = PhpArray.fromList([new PhpFloat(1)]);
    for (let level = 0; level < 40; level++)
      v = rec([
        ['down', v],
        ['side', PhpArray.fromList([level])],
      ]);
    let t = answer(v) as { a: [string, unknown][] };
    for (let level = 39; level >= 0; level--) {
      expect(t.a[1]).toEqual(['side', { p: [level] }]);
      t = t.a[0][1] as { a: [string, unknown][] };
    }
    expect(t).toEqual({ l: [{ f: 1 }] });
    expect(shape(decodeAnswer(answer(v)))).toEqual(shape(v));
  });

  it('refuses a value nested deeper than 64 levels', () => {
    let v: Value = 'leaf';
    for (let level = 0; level < 70; level++) v = PhpArray.fromList([v]);
    expect(() => encodeAnswer(v)).toThrow(TransferError);
  });

  it('is refused from the isolate: decodeValue takes no plain data', () => {
    expect(() => decodeValue({ p: { k: 1 } })).toThrow(TransferError);
    expect(() => decodeValue({ a: [['x', { p: [1] }]] })).toThrow(TransferError);
  });
});
