/**
 * The copy-on-change walk that toJSShared (value.ts) and a host's answer (protocol/transfer.ts)
 * share (src/value/copy-on-change.ts): plain data kept as itself, a level copied from its first
 * changed part, the key rule of `fromJS`, a refused part giving up every level above it.
 */
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, shareRecord, type LeafRule } from '../../src/value/copy-on-change.js';
import { fromJS, toJSShared } from '../../src/value/value.js';
import { encodeAnswer } from '../../src/protocol/transfer.js';

const same: LeafRule = (x) => x;
/** Doubles numbers, refuses `undefined`, keeps the rest. */
const doubling: LeafRule = (x) => (typeof x === 'number' ? x * 2 : x);

describe('shareRecord', () => {
  it('keeps data whose every part is its own leaf as the very same objects', () => {
    const o = { a: 'x', list: [1, 'y', [true]], nested: { b: null } };
    expect(shareRecord(o, same, 0)).toBe(o);
  });

  it('copies a level from its first changed part, and keeps the unchanged siblings', () => {
    const kept = { s: 'k' };
    const keptList = ['a'];
    const o = { first: kept, n: 1, list: ['a', 2, keptList], after: keptList };
    const out = shareRecord(o, doubling, 0) as typeof o;
    expect(out).not.toBe(o);
    expect(out).toEqual({ first: { s: 'k' }, n: 2, list: ['a', 4, ['a']], after: ['a'] });
    expect(out.first).toBe(kept);
    expect(out.after).toBe(keptList);
    expect(out.list[2]).toBe(keptList);
    expect(o).toEqual({ first: { s: 'k' }, n: 1, list: ['a', 2, ['a']], after: ['a'] });
    expect(Object.keys(out)).toEqual(Object.keys(o));
  });

  it('gives up on a key that fromJS does not read as itself, at any level', () => {
    expect(shareRecord({ a: 1, 7: 'int key' }, same, 0)).toBeUndefined();
    expect(shareRecord({ '-3': 'negative int key' }, same, 0)).toBeUndefined();
    expect(shareRecord(JSON.parse('{"__proto__": 1}') as Record<string, unknown>, same, 0)).toBeUndefined();
    // Not canonical ints: PHP keeps them as strings.
    const names = { '05': 1, '-0': 2, '1.5': 3, '9223372036854775808': 4 };
    expect(shareRecord(names, same, 0)).toBe(names);
  });

  it('hands a nested object it gave up on to the leaf rule, whole', () => {
    const seen: unknown[] = [];
    const inner = { 3: 'int key' };
    const nullProto = Object.assign(Object.create(null) as object, { a: 1 });
    const rule: LeafRule = (x) => {
      if (typeof x === 'object' && x !== null) seen.push(x);
      return typeof x === 'object' && x !== null ? 'leaf' : x;
    };
    expect(shareRecord({ inner, nullProto, d: new Date(0) }, rule, 0)).toEqual({
      inner: 'leaf',
      nullProto: 'leaf',
      d: 'leaf',
    });
    expect(seen).toEqual([inner, nullProto, new Date(0)]);
  });

  it('gives up on every level above a part the leaf rule refuses', () => {
    // As a host answer's rule: a string but 'no' is itself; anything else, a given-up object too, is refused.
    const refuse: LeafRule = (x) => (typeof x === 'string' && x !== 'no' ? x : undefined);
    expect(shareRecord({ a: { b: ['ok', 'no'] } }, refuse, 0)).toBeUndefined();
    expect(shareRecord({ a: { b: ['ok'] } }, refuse, 0)).toEqual({ a: { b: ['ok'] } });
  });

  it('reads an empty object as the empty list', () => {
    expect(shareRecord({}, same, 0)).toEqual([]);
    expect(shareRecord({ e: {} }, same, 0)).toEqual({ e: [] });
  });

  it(`walks ${MAX_DEPTH} levels and hands what is deeper to the leaf rule with its depth`, () => {
    let deep: unknown = 'end';
    for (let i = 0; i < MAX_DEPTH + 5; i++) deep = i % 2 ? { d: deep } : [deep];
    const depths: number[] = [];
    const rule: LeafRule = (x, depth) => {
      depths.push(depth);
      return typeof x === 'object' ? 'cut' : x;
    };
    const out = shareRecord({ top: deep }, rule, 0);
    expect(depths).toEqual([MAX_DEPTH + 1]);
    expect(JSON.stringify(out)).toContain('"cut"');
  });
});

describe('one walk for both its users', () => {
  it('{return} and a host answer share the same plain data, and copy the same levels', () => {
    const row = { topics_id: 1, subject: 's', tags: ['a'], ext: { venue: { name: 'n' } } };
    expect(toJSShared(fromJS(row))).toBe(row);
    expect((encodeAnswer(fromJS(row)) as { p: unknown }).p).toBe(row);

    // 2^60 is an int past 2^53: toJS writes a bigint, the answer its digits in pairs.
    const big = { keep: row.tags, n: 2 ** 60 };
    const out = toJSShared(fromJS(big)) as typeof big;
    expect(out).not.toBe(big);
    expect(out.keep).toBe(row.tags);
    expect(out.n).toBe(2n ** 60n);
    expect(encodeAnswer(fromJS(big))).toEqual({
      a: [
        ['keep', { p: ['a'] }],
        ['n', { i: String(2n ** 60n) }],
      ],
    });
  });
});
