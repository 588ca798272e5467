/**
 * A host plugin's row built as plain data and read lazily (fromJS) crosses as that data where
 * it is exact (src/protocol/transfer.ts, src/value/copy-on-change.ts): what encodeAnswer writes must be what it
 * wrote for the array settled key by key, and decode to the same value in the isolate.
 */
import { describe, expect, it } from 'vitest';
import { fromJS, PhpArray, PhpFloat, PhpObject, type Value } from '../../src/value/value.js';
import { decodeAnswer, encodeAnswer } from '../../src/protocol/transfer.js';

const samples: Record<string, () => Record<string, unknown>> = {
  row: () => ({ topics_id: 3, subject: 'é', on: true, none: null, f: 1.5, list: [1, 2], nested: { a: 'x' } }),
  intKeys: () => ({ b: 1, 10: 'ten', a: 2 }),
  packedKeys: () => ({ 0: 'a', 1: 'b' }),
  proto: () => JSON.parse('{"a": 1, "__proto__": {"x": 1}}') as Record<string, unknown>,
  numbers: () => ({ big: 2 ** 60, float: new PhpFloat(2), float2: new PhpFloat(2.5), nan: NaN, bigint: 5n }),
  arrays: () => ({
    php: PhpArray.fromList([1, fromJS({ k: 'v' })]),
    map: fromJS({ 5: 'x' }),
    empty: {},
    emptyList: [],
  }),
  holes: () => ({ sparse: [1, , 3] }), // eslint-disable-line no-sparse-arrays
  objects: () => ({ o: new PhpObject(), d: new Date(0), n: Object.create(null) as object }),
};

/** The same array, settled into maps before it is encoded (as every answer was before). */
function settled(v: Value): Value {
  if (v instanceof PhpArray) {
    v.packedValues();
    for (const [, x] of v.entries()) settled(x);
  }
  return v;
}

describe('encodeAnswer of a lazy record', () => {
  for (const [name, make] of Object.entries(samples)) {
    it(`${name}: the same text as the settled array`, () => {
      expect(JSON.stringify(encodeAnswer(fromJS(make())))).toBe(JSON.stringify(encodeAnswer(settled(fromJS(make())))));
    });
  }

  it('a row of plain data crosses as that object, not a copy, and reads back as the same array', () => {
    const row = samples.row!();
    const answer = encodeAnswer(fromJS(row)) as { p: unknown };
    expect(answer.p).toBe(row);
    expect(settled(decodeAnswer(JSON.parse(JSON.stringify(answer))))).toEqual(settled(fromJS(samples.row!())));
  });

  it('the depth limit holds in plain data', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 70; i++) deep = { d: deep };
    expect(() => encodeAnswer(fromJS(deep))).toThrow(/deeper than 64/);
  });
});
