/**
 * Plain objects among a render's variables become lazy records (src/value/php-array.ts): read
 * in place, converted on first read, settled into list or map storage by anything but a read.
 * Whatever a template does with one must match the array that eager conversion builds.
 */
import { describe, expect, it } from 'vitest';
import { fromJS, PhpArray, PhpFloat, type Key, type Value } from '../../src/value/value.js';
import { assignVar } from '../../src/value/assign.js';
import { createEngine } from '../../src/index.js';

/** The conversion before lazy records: every level built up front, in Object.keys order. */
function eager(v: unknown): Value {
  if (v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return Math.floor(v.getTime() / 1000);
  if (Array.isArray(v)) return PhpArray.fromList(v.map(eager));
  if (v !== null && typeof v === 'object')
    return PhpArray.fromEntries(Object.keys(v).map((k) => [k, eager((v as Record<string, unknown>)[k])] as const));
  return v as Value;
}

/** Keys (with their types), order, packedness and values, all the way down. */
function shape(v: Value): unknown {
  if (v instanceof PhpArray)
    return { list: v.isList, next: v.nextIndex, entries: v.entries().map(([k, x]): [Key, unknown] => [k, shape(x)]) };
  if (v instanceof PhpFloat) return { float: v.value };
  return v;
}

const samples: Record<string, () => unknown> = {
  names: () => ({ title: 'T', n: 3, on: true, none: null, f: 1.5 }),
  packedKeys: () => ({ 0: 'a', 1: 'b', 2: 'c' }),
  mixedKeys: () => ({ b: 1, 10: 'ten', a: 2, 2: 'two', '-3': 'neg', '05': 'str', '4294967295': 'big' }),
  nested: () => ({
    page: { title: 'x', meta: { tags: ['a', 'b'], deep: { k: [1, { z: 2 }] } } },
    items: [{ id: 1 }, { id: 2, tags: [] }],
  }),
  odd: () => ({ when: new Date(1_700_000_000_123), big: 12n, undef: undefined, empty: {}, emptyList: [] }),
  protoNames: () => JSON.parse('{"__proto__": {"a": 1}, "constructor": "c", "toString": 5, "valueOf": null}'),
};

describe('lazy records match eager conversion', () => {
  for (const [name, make] of Object.entries(samples)) {
    it(`${name}: entries, order, packedness and nested values`, () => {
      expect(shape(fromJS(make()))).toEqual(shape(eager(make())));
    });

    it(`${name}: every key reads the same before anything settles the record`, () => {
      const lazy = fromJS(make()) as PhpArray;
      const ref = eager(make()) as PhpArray;
      expect(lazy.size).toBe(ref.size);
      for (const k of ref.keys()) {
        expect(lazy.has(k), `has ${String(k)}`).toBe(true);
        expect(shape(lazy.get(k)), `get ${String(k)}`).toEqual(shape(ref.get(k)));
      }
      expect(shape(lazy)).toEqual(shape(ref));
    });
  }

  it('names Object.prototype lends are absent unless the data has them', () => {
    const a = fromJS({ x: 1 }) as PhpArray;
    for (const k of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf', '__defineGetter__']) {
      expect(a.has(k), k).toBe(false);
      expect(a.get(k), k).toBeNull();
    }
    const own = fromJS(JSON.parse('{"__proto__": {"a": 1}, "toString": "s"}')) as PhpArray;
    expect(own.has('__proto__')).toBe(true);
    expect(shape(own.get('__proto__'))).toEqual(shape(eager({ a: 1 })));
    expect(own.get('toString')).toBe('s');
  });

  it('a key of any kind reads what the settled array reads (the name and int fast paths)', () => {
    const data = () => ({ 1: 'one', '01': 'zero-one', 0: 'zero', '': 'empty', a: 'A', '-1': 'minus', '1.5': 'half' });
    const keys: unknown[] = [
      1,
      '1',
      '01',
      '1e0',
      ' 1',
      1.5,
      -0.5,
      -0,
      true,
      false,
      null,
      -1,
      '-1',
      '-0',
      'a',
      '',
      2 ** 31,
      1e300,
      NaN,
    ];
    keys.push(...['1.5', '9007199254740993', 9007199254740993n, 'toString', '__proto__']);
    const lazy = fromJS(data()) as PhpArray;
    const settled = fromJS(data()) as PhpArray;
    settled.set('x', 1); // any write settles a record into map storage
    settled.delete('x');
    for (const k of keys) expect(lazy.get(k as Key), `get ${String(k)}`).toBe(settled.get(k as Key));
  });

  it('a packed list read by a key of any kind reads what the same array in map storage reads', () => {
    const list = fromJS(['a', 'b', 'c', undefined]) as PhpArray;
    const map = fromJS(['a', 'b', 'c', undefined]) as PhpArray;
    map.set('x', 1); // a string key moves it to map storage
    map.delete('x');
    expect(list.isList).toBe(true);
    expect(map.isList).toBe(false);
    const keys: unknown[] = [
      0,
      1,
      2,
      3,
      4,
      -1,
      '1',
      '01',
      '1e0',
      1.5,
      2.9,
      -0.5,
      -0,
      true,
      false,
      null,
      2 ** 31,
      2 ** 32,
    ];
    keys.push(...[1e300, NaN, Infinity, 1n, 'length', 'a']);
    for (const k of keys) expect(list.get(k as Key), `get ${String(k)}`).toBe(map.get(k as Key));
  });

  it('a key whose value is undefined exists and reads as null, as before', () => {
    const a = fromJS({ u: undefined, v: 1 }) as PhpArray;
    expect(a.has('u')).toBe(true);
    expect(a.get('u')).toBeNull();
    expect(a.size).toBe(2);
  });

  it('a nested value is converted once: two reads give the same array', () => {
    const a = fromJS({ p: { q: [1, 2] } }) as PhpArray;
    expect(a.get('p')).toBe(a.get('p'));
    expect((a.get('p') as PhpArray).get('q')).toBe((a.get('p') as PhpArray).get('q'));
  });

  it('an object that sits twice in the data is two values: writing through one leaves the other', () => {
    const inner = { n: 1, list: [1] };
    const scope: Record<string, Value> = { a: fromJS({ p: inner, q: inner }) };
    // Read through q first, so that the shared object holds the list that read converted.
    expect((((scope.a as PhpArray).get('q') as PhpArray).get('list') as PhpArray).size).toBe(1);
    assignVar(scope, 'a.p.n', 2);
    assignVar(scope, 'a.p.list.', 3);
    const a = scope.a as PhpArray;
    expect(shape(a.get('p'))).toEqual(shape(eager({ n: 2, list: [1, 3] })));
    expect(shape(a.get('q'))).toEqual(shape(eager({ n: 1, list: [1] })));
  });

  it('writes settle the record: set, push, delete, then reads see the change', () => {
    const a = fromJS({ x: 1, y: { z: 2 } }) as PhpArray;
    a.set('w', 'new');
    a.delete('x');
    a.push('pushed');
    expect(shape(a)).toEqual(
      shape(
        PhpArray.fromEntries([
          ['y', eager({ z: 2 })],
          ['w', 'new'],
          [0, 'pushed'],
        ]),
      ),
    );
  });

  it('a counted record keeps its count, and settling after it leaves the next index as before', () => {
    const a = fromJS({ x: 1, y: { z: 2 } }) as PhpArray;
    expect(a.size).toBe(2);
    expect(a.size).toBe(2);
    a.push('pushed');
    expect(a.nextIndex).toBe(1);
    expect(shape(a)).toEqual(
      shape(
        PhpArray.fromEntries([
          ['x', 1],
          ['y', eager({ z: 2 })],
          [0, 'pushed'],
        ]),
      ),
    );
  });

  it('a frozen object or a class instance is converted up front, with the same result', () => {
    const frozen = Object.freeze({ b: 1, a: [1, 2] });
    expect(shape(fromJS(frozen))).toEqual(shape(eager({ b: 1, a: [1, 2] })));
    class Point {
      x = 1;
      y = 2;
    }
    expect(shape(fromJS(new Point()))).toEqual(shape(eager({ x: 1, y: 2 })));
  });
});

describe('lazy records in a render', () => {
  it('shared objects in the vars stay separate values through a real render (structured clone keeps the sharing)', async () => {
    const engine = createEngine({ workers: 0 });
    try {
      const inner = { n: 1, list: [1] };
      const r = await engine.render(
        '{$a.q.list|@count}{assign var="a.p.list." value=2}{assign var="a.p.n" value=2}{$a.p.list|@count}{$a.q.list|@count}{$a.q.n}{$a|@count}{foreach from=$a.p key=k item=v}{$k};{/foreach}',
        { vars: { a: { p: inner, q: inner } } },
      );
      expect(r.output).toBe('12112n;list;');
    } finally {
      await engine.close();
    }
  });
});
