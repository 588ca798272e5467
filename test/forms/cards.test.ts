import { describe, expect, it } from 'vitest';
import {
  addAfter,
  addButtons,
  cardOperations,
  moveDown,
  moveUp,
  remove,
  type CardResult,
} from '../../src/forms/cards.js';
import { initialValue } from '../../src/forms/initial.js';
import { getAt } from '../../src/forms/value-path.js';
import type { JsonSchema, JsonValue } from '../../src/forms/types.js';
import { mulberry32 as rng } from '../support/prng.js';

const card: JsonSchema = {
  type: 'object',
  properties: { t: { type: 'string', default: 'new' }, n: { type: 'integer', enum: [7, 8] } },
};
const schema: JsonSchema = {
  type: 'object',
  properties: {
    list: { type: 'array', minItems: 1, maxItems: 3, items: card },
    free: { type: 'array', items: card },
    outer: {
      type: 'array',
      items: { type: 'object', properties: { inner: { type: 'array', maxItems: 2, items: card } } },
    },
  },
};
const ok = (r: CardResult): JsonValue => {
  if (!r.ok) throw new Error(r.refusal.message.en);
  return r.value;
};
const items = (v: JsonValue, path: Array<string | number>) => getAt(v, path) as Array<{ t: string }>;

describe('card operations', () => {
  it('addButtons: one Add below each card; with zero cards only the first Add', () => {
    expect(addButtons(0)).toEqual([-1]);
    expect(addButtons(1)).toEqual([0]);
    expect(addButtons(3)).toEqual([0, 1, 2]);
  });

  it('adds the initial value of items below the given card', () => {
    const v0: JsonValue = { list: [{ t: 'a', n: 8 }], free: [] };
    const v1 = ok(addAfter(schema, v0, ['list'], 0));
    expect(getAt(v1, ['list'])).toEqual([
      { t: 'a', n: 8 },
      { t: 'new', n: 7 },
    ]);
    const v2 = ok(addAfter(schema, v1, ['list'], -1));
    expect(items(v2, ['list']).map((c) => c.t)).toEqual(['new', 'a', 'new']);
    // the first Add on an empty (or missing) array
    expect(getAt(ok(addAfter(schema, v0, ['free'], -1)), ['free'])).toEqual([{ t: 'new', n: 7 }]);
    expect(getAt(ok(addAfter(schema, {}, ['free'], -1)), ['free'])).toHaveLength(1);
  });

  it('never mutates its input and shares untouched parts', () => {
    const v0 = { list: [{ t: 'a' }, { t: 'b' }], free: [{ t: 'x' }] } as unknown as JsonValue;
    const snapshot = JSON.stringify(v0);
    const v1 = ok(moveDown(schema, v0, ['list'], 0)) as Record<string, JsonValue>;
    expect(JSON.stringify(v0)).toBe(snapshot);
    expect(v1.free).toBe((v0 as Record<string, JsonValue>).free);
  });

  it('refuses to add at maxItems, with an en/ja message naming the limit', () => {
    const full: JsonValue = { list: [{ t: 'a' }, { t: 'b' }, { t: 'c' }] };
    const r = addAfter(schema, full, ['list'], 2);
    expect(r).toEqual({
      ok: false,
      refusal: {
        code: 'max-items',
        limit: 3,
        message: {
          en: 'At most 3 items are allowed; the item was not added.',
          ja: '最大3件までです。追加できません。',
        },
      },
    });
  });

  it('refuses to delete below minItems', () => {
    const r = remove(schema, { list: [{ t: 'a' }] }, ['list'], 0);
    expect(r).toEqual({
      ok: false,
      refusal: {
        code: 'min-items',
        limit: 1,
        message: {
          en: 'At least 1 item is required; the item was not deleted.',
          ja: '最低1件必要です。削除できません。',
        },
      },
    });
    expect(getAt(ok(remove(schema, { list: [{ t: 'a' }, { t: 'b' }] }, ['list'], 0)), ['list'])).toEqual([{ t: 'b' }]);
  });

  it('also refuses to delete when a loaded value is already below minItems', () => {
    const s: JsonSchema = { type: 'object', properties: { l: { type: 'array', minItems: 3, items: card } } };
    expect(remove(s, { l: [{}, {}] }, ['l'], 0).ok).toBe(false);
  });

  it('moves up and down; at the ends nothing changes', () => {
    const v0: JsonValue = { list: [{ t: 'a' }, { t: 'b' }, { t: 'c' }] };
    expect(items(ok(moveUp(schema, v0, ['list'], 2)), ['list']).map((c) => c.t)).toEqual(['a', 'c', 'b']);
    expect(items(ok(moveDown(schema, v0, ['list'], 0)), ['list']).map((c) => c.t)).toEqual(['b', 'a', 'c']);
    expect(moveUp(schema, v0, ['list'], 0)).toEqual({ ok: true, value: v0, changed: false });
    expect(moveDown(schema, v0, ['list'], 2)).toEqual({ ok: true, value: v0, changed: false });
  });

  it('works on nested cards (object > array > object > array)', () => {
    // (Schemas that deep are refused by the form; the value operations still work by path.)
    const v0: JsonValue = { outer: [{ inner: [] }, { inner: [{ t: 'z' }] }] };
    const v1 = ok(addAfter(schema, v0, ['outer', 1, 'inner'], 0));
    expect(getAt(v1, ['outer', 1, 'inner'])).toEqual([{ t: 'z' }, { t: 'new', n: 7 }]);
    expect(addAfter(schema, v1, ['outer', 1, 'inner'], 1).ok).toBe(false);
    expect(getAt(v1, ['outer', 0])).toBe(getAt(v0, ['outer', 0]));
  });

  it('works on a root array', () => {
    const s: JsonSchema = { type: 'array', maxItems: 1, items: card };
    const v = ok(addAfter(s, [], [], -1));
    expect(v).toEqual([{ t: 'new', n: 7 }]);
    expect(addAfter(s, v, [], 0).ok).toBe(false);
  });

  it('throws RangeError for indexes outside the array and for paths without an array schema', () => {
    const v: JsonValue = { list: [{ t: 'a' }] };
    expect(() => addAfter(schema, v, ['list'], 1)).toThrow(RangeError);
    expect(() => addAfter(schema, v, ['list'], -2)).toThrow(RangeError);
    expect(() => remove(schema, v, ['list'], 1)).toThrow(RangeError);
    expect(() => moveUp(schema, v, ['list'], 0.5)).toThrow(RangeError);
    expect(() => remove(schema, v, ['nope'], 0)).toThrow(RangeError);
  });

  it('cardOperations binds a schema', () => {
    const ops = cardOperations(schema);
    expect(ops.addAfter({ list: [] }, ['list'], -1).ok).toBe(true);
  });
});

describe('card operations: random sequences (property-based, seeded)', () => {
  const limits: Array<[number | undefined, number | undefined]> = [
    [undefined, undefined],
    [0, 0],
    [1, 1],
    [1, 3],
    [2, 5],
    [0, 4],
    [3, undefined],
    [undefined, 2],
  ];
  for (const [min, max] of limits) {
    it(`minItems=${min} maxItems=${max}: ${min ?? 0} <= length <= ${max ?? '∞'} after every op; ops behave as specified`, () => {
      const arr: JsonSchema = { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } };
      if (min !== undefined) arr.minItems = min;
      if (max !== undefined) arr.maxItems = max;
      const s: JsonSchema = { type: 'object', properties: { list: arr } };
      for (let seed = 1; seed <= 40; seed++) {
        const rand = rng(seed * 7919 + (min ?? 9) * 31 + (max ?? 9));
        let value = initialValue(s);
        let nextId = 0;
        // label initial cards so moves can be checked
        value = { list: (getAt(value, ['list']) as JsonValue[]).map(() => ({ id: nextId++ })) };
        for (let step = 0; step < 60; step++) {
          const list = getAt(value, ['list']) as Array<{ id: number | null }>;
          const n = list.length;
          const op = Math.floor(rand() * 4);
          let r: CardResult;
          if (op === 0) {
            const buttons = addButtons(n);
            const at = buttons[Math.floor(rand() * buttons.length)]!;
            r = addAfter(s, value, ['list'], at);
            if (max !== undefined && n >= max)
              expect(r).toMatchObject({ ok: false, refusal: { code: 'max-items', limit: max } });
            else {
              expect(r.ok).toBe(true);
              const after = getAt((r as { value: JsonValue }).value, ['list']) as Array<{ id: number | null }>;
              expect(after[at + 1]).toEqual({ id: null });
              after[at + 1] = { id: nextId++ };
            }
          } else if (n === 0) {
            continue;
          } else {
            const i = Math.floor(rand() * n);
            if (op === 1) {
              r = remove(s, value, ['list'], i);
              if (min !== undefined && n - 1 < min)
                expect(r).toMatchObject({ ok: false, refusal: { code: 'min-items', limit: min } });
              else expect((getAt((r as { value: JsonValue }).value, ['list']) as unknown[]).length).toBe(n - 1);
            } else {
              r = op === 2 ? moveUp(s, value, ['list'], i) : moveDown(s, value, ['list'], i);
              expect(r.ok).toBe(true);
              const after = getAt((r as { value: JsonValue }).value, ['list']) as Array<{ id: number }>;
              const j = op === 2 ? i - 1 : i + 1;
              if (j >= 0 && j < n) {
                expect(after[j]).toEqual(list[i]);
                expect(after[i]).toEqual(list[j]);
              } else expect(after).toEqual(list);
              // a move is a permutation
              expect(after.map((c) => c.id).sort()).toEqual(list.map((c) => c.id).sort());
            }
          }
          if (r.ok) value = r.value;
          const len = (getAt(value, ['list']) as unknown[]).length;
          expect(len).toBeGreaterThanOrEqual(min ?? 0);
          if (max !== undefined) expect(len).toBeLessThanOrEqual(max);
        }
      }
    });
  }
});
