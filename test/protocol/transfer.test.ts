/**
 * The bridge's value format carries 64-bit ints exactly (docs/decisions.md D70): an int past
 * 2^53 as `{ i: digits }`, an int key past 2^53 as its digits, through the JSON text that
 * crosses between isolate and host, both ways.
 */
import { describe, expect, it } from 'vitest';
import { TransferError, decodeValue, encodeValue } from '../../src/protocol/transfer.js';
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
