/**
 * The isolate's side of the vars' tables (src/value/tables.ts, D281): a table's rows read in
 * place behave as the lazy records of the plain rows would, through every way an array is used
 * (reads of each kind of key, counts, writes, copies, foreach, json_encode), and a table of a
 * shape the host's encoder never writes is E_BAD_VARS.
 */
import { describe, expect, it } from 'vitest';
import { encodeTables } from '../../src/protocol/tables.js';
import { fromVars, plainTables, TableError, TABLE_MARK } from '../../src/value/tables.js';
import { fromJS, toJS, PhpArray, type Key } from '../../src/value/value.js';
import { jsonEncode } from '../../src/php/json/encode.js';

/** The list `rows` as readVars gives it from a table, and as it gives it from the plain data. */
function both(rows: Record<string, unknown>[]): [PhpArray, PhpArray] {
  const sent = encodeTables({ rows })!;
  expect(sent).not.toBeNull();
  const tabled = fromVars(structuredClone(sent.rows)) as PhpArray;
  const plain = fromJS(structuredClone(rows)) as PhpArray;
  return [tabled, plain];
}

const ROWS = () => [
  { id: 1, 0: 'zero', title: 'a', tags: ['x', 'y'], author: { id: 7, name: 'n' }, big: 2 ** 60, f: 1.5, u: undefined },
  { id: 2, 0: 'nil', title: 'b', tags: [], author: { id: 8, name: 'm' }, big: 3, f: 2.0, u: null },
];

describe('a table row', () => {
  // Keys of every kind a template can pass (a bool, null or a float key as a template's `get` receives it).
  const keys = [
    'id',
    'title',
    0,
    '0',
    'tags',
    'author',
    'big',
    'f',
    'u',
    'missing',
    1,
    '01',
    -0,
    0.5,
    true,
    null,
    '__proto__',
    'constructor',
  ] as Key[];
  it.each(keys.map((k) => [String(k), k] as const))('reads key %s as the plain row does', (_, k) => {
    const [t, p] = both(ROWS());
    for (let i = 0; i < 2; i++) {
      const tr = t.get(i) as PhpArray;
      const pr = p.get(i) as PhpArray;
      expect(toJS(tr.get(k))).toEqual(toJS(pr.get(k)));
      expect(tr.has(k)).toBe(pr.has(k));
      expect(tr.size).toBe(pr.size);
    }
  });

  it('reads a nested value once and keeps it (the same array at the second read)', () => {
    const [t] = both(ROWS());
    const row = t.get(0) as PhpArray;
    const a = row.get('author');
    expect(a).toBeInstanceOf(PhpArray);
    expect(row.get('author')).toBe(a);
    expect((a as PhpArray).shared).toBe(true);
    expect((a as PhpArray).get('name')).toBe('n');
  });

  it('lists, counts and copies as the plain row does', () => {
    const [t, p] = both(ROWS());
    for (let i = 0; i < 2; i++) {
      const tr = t.get(i) as PhpArray;
      const pr = p.get(i) as PhpArray;
      expect(tr.keys()).toEqual(pr.keys());
      expect(toJS(tr)).toEqual(toJS(pr));
      expect(tr.isList).toBe(pr.isList);
      expect(tr.nextIndex).toBe(pr.nextIndex);
    }
  });

  it('takes a write as the plain row does, and a copy is a value of its own', () => {
    const [t, p] = both(ROWS());
    for (const a of [t, p]) {
      const row = a.get(1) as PhpArray;
      const copy = row.clone();
      row.set('title', 'changed');
      row.push('pushed');
      row.delete('id');
      expect(copy.get('title')).toBe('b');
    }
    expect(toJS(t)).toEqual(toJS(p));
    expect(jsonEncode(t)).toBe(jsonEncode(p));
  });

  it('is written by json_encode as the plain row is, before and after a read', () => {
    const [t, p] = both(ROWS());
    expect(jsonEncode(t)).toBe(jsonEncode(p));
    (t.get(0) as PhpArray).get('author');
    expect(jsonEncode(t)).toBe(jsonEncode(p));
    expect(jsonEncode(t.get(1) as PhpArray)).toBe(jsonEncode(p.get(1) as PhpArray));
  });

  it('a record holding a table gives raw readers plain rows (json_encode by JSON.stringify)', () => {
    const api = { status: 'ok', items: ROWS().map(({ u: _u, big: _b, ...r }) => r) };
    const sent = encodeTables({ api })!;
    const rec = fromVars(structuredClone(sent.api)) as PhpArray;
    const source = rec.recordSource() as { items: unknown[] };
    expect(Array.isArray(source.items) && source.items[0]).toEqual(api.items[0]);
    expect(jsonEncode(rec)).toBe(jsonEncode(fromJS(structuredClone(api))));
  });
});

describe('a malformed table', () => {
  const bad: [string, unknown][] = [
    ['keys that are not a list', [TABLE_MARK, 'a', [1]]],
    ['fewer columns than keys', [TABLE_MARK, ['a', 'b'], [1]]],
    ['no keys', [TABLE_MARK, []]],
    ['a key that is not a string', [TABLE_MARK, [1], [1]]],
    ['a __proto__ key', [TABLE_MARK, ['__proto__'], [{}]]],
    ['a column that is not a list', [TABLE_MARK, ['a'], 'x']],
    ['columns of two lengths', [TABLE_MARK, ['a', 'b'], [1, 2], [1]]],
    ['a nested table of another length', [TABLE_MARK, ['a', 'b'], [1, 2], [TABLE_MARK, ['c'], [1]]]],
  ];
  it.each(bad)('with %s is E_BAD_VARS, read or raw', (_, t) => {
    for (const read of [() => fromVars(t), () => plainTables({ t })]) {
      let err: unknown;
      try {
        read();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(TableError);
      expect((err as TableError).code).toBe('E_BAD_VARS');
    }
  });
});
