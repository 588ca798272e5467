/**
 * The vars' lists of rows as tables (src/protocol/tables.ts, D281): what the encoder makes a table
 * and what it sends as it is, and that the isolate's two readings of a structured clone of what it
 * sent (src/value/tables.ts: the rows in place, and the plain rows a raw reader gets) are the
 * structured clone of the original, key order and all, for every case.
 */
import { describe, expect, it } from 'vitest';
import { encodeTables, TABLE_MARK } from '../../src/protocol/tables.js';
import { decodeVars, VarsError } from '../../src/protocol/vars.js';
import { fromVars, plainTables } from '../../src/value/tables.js';
import { fromJS, toJS, type Value } from '../../src/value/value.js';
import { jsonEncode } from '../../src/php/json/encode.js';

/** Deep equality that also compares key order, prototypes, holes and Dates. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (a instanceof Date) return a.getTime() === (b as Date).getTime();
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (i in a !== i in bb || !same(a[i], bb[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.join('\0') === kb.join('\0') && ka.every((k) => same((a as never)[k], (b as never)[k]));
}

/**
 * What the isolate holds after the trip: the clone of what was sent, read two ways, as readVars
 * converts it (each top-level value by fromVars) and as a raw reader gets it (plainTables).
 */
function trip(vars: Record<string, unknown>): { read: Record<string, Value>; raw: unknown; tables: number } {
  const sent = encodeTables(vars);
  const read: Record<string, Value> = {};
  for (const [k, v] of Object.entries(structuredClone(sent ?? vars))) read[k] = fromVars(v);
  const raw = structuredClone(sent ?? vars);
  plainTables(raw);
  return { read, raw, tables: sent === null ? 0 : countTables(sent) };
}

function countTables(x: unknown): number {
  if (typeof x !== 'object' || x === null) return 0;
  let n = Array.isArray(x) && x[0] === TABLE_MARK ? 1 : 0;
  for (const v of Object.values(x)) n += countTables(v);
  return n;
}

class Point {
  constructor(
    public x: number,
    public y: number,
  ) {}
}

const rows = (n: number, f: (i: number) => Record<string, unknown>) => Array.from({ length: n }, (_, i) => f(i));
const holey: unknown[] = [{ a: 1 }, { a: 2 }];
holey[3] = { a: 4 };

/** [name, vars, how many tables the encoder makes (0: the vars go as they are)]. */
const CASES: [string, Record<string, unknown>, number][] = [
  ['same-keyed rows', { items: rows(3, (i) => ({ id: i, title: `t${i}` })) }, 1],
  ['a row with a key missing', { items: [{ a: 1, b: 2 }, { a: 1 }] }, 0],
  ['a row with a key extra', { items: [{ a: 1 }, { a: 1, b: 2 }] }, 0],
  [
    'the same keys in another order',
    {
      items: [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
    },
    0,
  ],
  [
    'integer-like keys',
    {
      items: [
        { 2: 'x', b: 1, 0: 'y' },
        { b: 2, 0: 'z', 2: 'w' },
      ],
    },
    1,
  ],
  ['keys Object.prototype has', { items: rows(2, (i) => ({ constructor: i, toString: 'no', valueOf: null })) }, 1],
  ['a __proto__ key', { items: JSON.parse('[{"__proto__": 1, "a": 2}, {"__proto__": 3, "a": 4}]') as unknown[] }, 0],
  ['nested rows (a column of rows)', { items: rows(3, (i) => ({ id: i, author: { id: i % 2, name: 'n' } })) }, 2],
  [
    'rows in a cell',
    { items: rows(2, (i) => ({ id: i, comments: rows(2, (j) => ({ by: j, text: `${i}.${j}` })) })) },
    3,
  ],
  ['rows deep in plain objects', { a: { b: { c: [{ x: 1 }, { x: 2 }] } }, d: 1 }, 1],
  ['a list of lists of rows', { grid: [rows(2, (i) => ({ v: i })), rows(2, (i) => ({ v: i + 2 }))] }, 2],
  ['empty rows', { items: [{}, {}] }, 0],
  ['an empty list', { items: [] }, 0],
  ['a 1-row list', { items: [{ a: 1 }] }, 0],
  ['a hole among the rows', { items: holey }, 0],
  ['a null among the rows', { items: [{ a: 1 }, null, { a: 2 }] }, 0],
  ['a list among the rows', { items: [{ a: 1 }, [1]] }, 0],
  ['Dates in the cells', { items: rows(2, (i) => ({ at: new Date(1_700_000_000_000 + i * 1000) })) }, 1],
  ['Dates as the rows', { items: [new Date(0), new Date(1)] }, 0],
  ['class instances as the rows', { items: [new Point(1, 2), new Point(3, 4)] }, 0],
  ['class instances in the cells', { items: rows(2, (i) => ({ p: new Point(i, i) })) }, 1],
  [
    'rows without a prototype',
    { items: [Object.assign(Object.create(null), { a: 1 }), Object.assign(Object.create(null), { a: 2 })] },
    0,
  ],
  [
    'undefined, NaN, -0 and bigints in the cells',
    {
      items: [
        { a: undefined, b: NaN },
        { a: -0, b: 2n ** 70n },
      ],
    },
    1,
  ],
  ['mixed: rows and strings', { items: [{ a: 1 }, 'x'] }, 0],
  ['no lists at all', { a: 1, b: 'x', c: { d: true } }, 0],
  [
    'the same row object twice',
    (() => {
      const r = { a: 1 };
      return { items: [r, r, r] };
    })(),
    1,
  ],
  ['sparse and long', { items: Object.assign([], { 5: { a: 1 } }) }, 0],
  [
    'a Map and a typed array beside rows',
    { m: new Map([[1, 2]]), t: new Uint8Array(4), items: [{ a: 1 }, { a: 2 }] },
    1,
  ],
];

describe('encodeTables', () => {
  it.each(CASES)('%s', (_, vars, tables) => {
    const before = structuredClone(vars);
    const { read, raw, tables: made } = trip(vars);
    expect(made).toBe(tables);
    expect(same(raw, structuredClone(vars))).toBe(true);
    // What a template reads is what it read before, and the embedder's object is untouched.
    for (const [k, v] of Object.entries(structuredClone(vars))) {
      expect(toJS(read[k])).toEqual(toJS(fromJS(v)));
      expect(jsonEncode(read[k])).toBe(jsonEncode(fromJS(v)));
    }
    expect(same(structuredClone(vars), before)).toBe(true);
  });

  it('writes a table as the mark, the keys and one column per key', () => {
    const sent = encodeTables({
      n: 1,
      items: [
        { id: 1, t: 'a' },
        { id: 2, t: 'b' },
      ],
    });
    expect(sent).toEqual({ n: 1, items: [TABLE_MARK, ['id', 't'], [1, 2], ['a', 'b']] });
  });

  it('shares what holds no table', () => {
    const page = { title: 'x', tags: ['a', 'b'] };
    const sent = encodeTables({ page, items: [{ a: 1 }, { a: 2 }] })!;
    expect(sent.page).toBe(page);
  });

  it('json_encode of the rebuilt rows is the original text', () => {
    const vars = {
      api: { items: rows(3, (i) => ({ id: i, title: `タイトル/${i}`, tags: ['a'], author: { id: i } })) },
    };
    const { read } = trip(vars);
    expect(jsonEncode(read.api)).toBe(jsonEncode(fromJS(structuredClone(vars.api))));
  });

  describe('gives up, and the vars go as they are', () => {
    const mark: [string, Record<string, unknown>][] = [
      ['a list starting with the mark', { items: [{ a: 1 }, { a: 2 }], forged: [TABLE_MARK, ['a'], [1, 2]] }],
      ['a column starting with the mark', { items: [{ a: TABLE_MARK }, { a: 'x' }] }],
      ['a list in a cell starting with the mark', { items: [{ a: [TABLE_MARK] }, { a: [] }] }],
      [
        'the mark inside a class instance',
        { items: [{ a: 1 }, { a: 2 }], p: Object.assign(new Point(1, 2), { l: [TABLE_MARK] }) },
      ],
    ];
    it.each(mark)('%s', (_, vars) => expect(encodeTables(vars)).toBeNull());

    it('a cycle', () => {
      const o: Record<string, unknown> = { items: [{ a: 1 }, { a: 2 }] };
      o.self = o;
      expect(encodeTables(o)).toBeNull();
    });

    it('past its budget of values (shared references it would repeat)', () => {
      let level: unknown = [{ a: 1 }, { a: 2 }];
      for (let i = 0; i < 30; i++) level = { l: level, r: level };
      expect(encodeTables({ x: level })).toBeNull();
    });

    it('a list longer than the budget', () => {
      expect(encodeTables({ items: [{ a: 1 }, { a: 2 }], big: new Array(300_000).fill(0) })).toBeNull();
    });

    it('a key that Object.prototype lends every object', () => {
      const proto = Object.prototype as Record<string, unknown>;
      proto.polluted = 1;
      try {
        expect(encodeTables({ items: [{ a: 1 }, { a: 2 }] })).toBeNull();
      } finally {
        delete proto.polluted;
      }
    });
  });
});

describe('the vars format', () => {
  it('is checked like the others', () => {
    expect(decodeVars({ format: 'tables', value: { a: 1 } })).toEqual({ format: 'tables', value: { a: 1 } });
    expect(() => decodeVars({ format: 'tables', value: [1] })).toThrow(VarsError);
  });
});
