/**
 * {return}'s value leaves the isolate through toJSShared and is measured by checkReturnSize, both
 * reading a lazy record's plain data in place instead of settling it (src/value/value.ts,
 * src/runtime/return-size.ts). Each must give what it gave on the settled array: the same JSON
 * text and structure as toJS, the same size, the same limit errors.
 */
import { describe, expect, it } from 'vitest';
import { fromJS, toJS, toJSShared, PhpArray, PhpFloat, PhpObject, type Value } from '../../src/value/value.js';
import { decodeAnswer, encodeAnswer } from '../../src/protocol/transfer.js';
import { checkReturnSize } from '../../src/runtime/return-size.js';

const samples: Record<string, () => unknown> = {
  names: () => ({ title: 'T', n: 3, on: true, none: null, f: 1.5, i: -0 }),
  packedKeys: () => ({ 0: 'a', 1: 'b', 2: 'c' }),
  mixedKeys: () => ({ b: 1, 10: 'ten', a: 2, 2: 'two', '-3': 'neg', '05': 'str', '-0': 'mz' }),
  nested: () => ({
    page: { title: 'x', meta: { tags: ['a', 'b'], deep: { k: [1, { z: 2 }] } } },
    items: [{ id: 1 }, { id: 2, tags: [] }, { 0: 'list-like' }],
  }),
  odd: () => ({ when: new Date(1_700_000_000_123), big: 12n, undef: undefined, empty: {}, emptyList: [], fn: () => 1 }),
  numbers: () => ({ big: 2 ** 60, huge: 1e300, neg: -(2 ** 55), frac: 0.1, list: [2 ** 53, 3] }),
  holes: () => ({ sparse: [1, , 3], undef: [undefined, 'x'] }), // eslint-disable-line no-sparse-arrays
  protoNames: () =>
    JSON.parse('{"__proto__": {"a": 1}, "constructor": "c", "toString": 5, "nested": {"__proto__": 1}}'),
  nullProto: () => ({ o: Object.assign(Object.create(null) as object, { a: 1, b: [1] }) }),
  classes: () => ({ m: new Map([['a', 1]]), s: new Set([1]), php: PhpArray.fromList([1, 'x']), f: new PhpFloat(2) }),
  emptyTop: () => ({}),
};

/** What JSON.stringify writes, bigints as tagged strings (JSON.stringify refuses them). */
const text = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x));

describe('toJSShared: what toJS gives, sharing the plain data it would copy', () => {
  for (const [name, make] of Object.entries(samples)) {
    it(`${name}: the same structure and JSON text as toJS`, () => {
      const shared = toJSShared(fromJS(make()));
      const copied = toJS(fromJS(make()));
      expect(text(shared)).toBe(text(copied));
      expect(shared).toStrictEqual(copied);
    });
    it(`${name}: the same after some fields were read (converted in place)`, () => {
      const a = fromJS(make()) as PhpArray;
      for (const k of Object.keys(make() as object)) a.get(k);
      expect(text(toJSShared(a))).toBe(text(toJS(fromJS(make()))));
    });
  }

  it('a host answer that came in as plain data leaves as that data, not a copy', () => {
    const data = { errors: [], list: [{ topics_id: 1, subject: 's', contents_type_list: [3] }], pageInfo: { n: 1 } };
    const answer = decodeAnswer(JSON.parse(JSON.stringify(encodeAnswer(fromJS(data))))) as PhpArray;
    checkReturnSize(answer, 1e6);
    expect(toJSShared(answer)).toBe(answer.recordSource());
    expect(toJSShared(answer)).toEqual(data);
  });

  it('a record changed by the template leaves as its new value', () => {
    const a = fromJS({ x: 1, y: { z: 2 } }) as PhpArray;
    a.set('x', 5);
    expect(toJSShared(a)).toEqual({ x: 5, y: { z: 2 } });
    expect(toJSShared(fromJS([fromJS({ q: 1 }), new PhpObject()]))).toEqual([{ q: 1 }, {}]);
  });
});

describe('checkReturnSize reads a lazy record as its settled array', () => {
  /** The size it measures: the smallest limit that does not throw. */
  function measured(v: () => Value): number {
    let lo = 0;
    let hi = 1 << 20;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      try {
        checkReturnSize(v(), mid);
        hi = mid;
      } catch {
        lo = mid + 1;
      }
    }
    return lo;
  }
  /** The array fromJS makes, settled before it is measured (as every walk did before). */
  function settled(v: Value): Value {
    if (v instanceof PhpArray) {
      v.packedValues();
      for (const [, x] of v.entries()) settled(x);
    }
    return v;
  }
  for (const [name, make] of Object.entries(samples)) {
    it(`${name}: the same size`, () => {
      expect(measured(() => fromJS(make()))).toBe(measured(() => settled(fromJS(make()))));
    });
  }

  it('the depth limit holds in plain data', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 70; i++) deep = { d: deep };
    expect(() => checkReturnSize(fromJS(deep), 1e6)).toThrow(/nested deeper than 64/);
    let list: unknown = 'leaf';
    for (let i = 0; i < 70; i++) list = [list];
    expect(() => checkReturnSize(fromJS({ l: list }), 1e6)).toThrow(/nested deeper than 64/);
  });
});

describe('toJS keeps a __proto__ key as data (IS-15)', () => {
  const data = () => JSON.parse('{"__proto__": {"a": 1}, "constructor": "c", "list": [{"__proto__": 2}]}');
  for (const [name, out] of [
    ['toJS', (v: Value) => toJS(v)],
    ['toJSShared', (v: Value) => toJSShared(v)],
  ] as const) {
    it(`${name}: an own key, not the prototype, and the keys after it writable`, () => {
      const o = out(fromJS(data())) as Record<string, unknown>;
      expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
      expect(Object.hasOwn(o, '__proto__')).toBe(true);
      expect(o.constructor).toBe('c');
      expect(JSON.stringify(o)).toBe('{"__proto__":{"a":1},"constructor":"c","list":[{"__proto__":2}]}');
    });
  }
  it('a PhpObject with a __proto__ property', () => {
    const obj = new PhpObject();
    obj.props.set('__proto__', 'x');
    const o = toJS(obj) as Record<string, unknown>;
    expect(Object.hasOwn(o, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
  });
});
