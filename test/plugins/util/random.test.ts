/** {uuid} and {lottery}: formats and invariants over many seeds, reproducibility for a seed. */
import { describe, expect, it } from 'vitest';
import uuid from '../../../src/plugins/util/uuid.js';
import lottery from '../../../src/plugins/util/lottery.js';
import { PhpArray, type Value } from '../../../src/value/value.js';
import { toStr } from '../../../src/value/convert.js';
import { LimitError } from '../../../src/value/limits.js';
import { Gen, makeCtx, run } from './support.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('{uuid}', () => {
  it('makes RFC 4122 version 4 ids, all different, over many seeds', () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 200; seed++) {
      const ctx = makeCtx({ seed });
      for (let k = 0; k < 5; k++) {
        run(uuid, { var: 'u' }, ctx);
        const u = ctx.scope.u as string;
        expect(u).toMatch(UUID_V4);
        seen.add(u);
      }
    }
    expect(seen.size).toBe(1000);
  });

  it('uses every hex digit in the random positions', () => {
    const ctx = makeCtx({ seed: 1 });
    const counts = new Map<string, number>();
    for (let k = 0; k < 500; k++) {
      run(uuid, { var: 'u' }, ctx);
      for (const ch of (ctx.scope.u as string).replace(/-/g, '').slice(0, 12))
        counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
    expect(counts.size).toBe(16);
    for (const n of counts.values()) expect(n).toBeGreaterThan(250); // 6000 digits / 16 = 375 expected
  });

  it('is reproducible for a seed', () => {
    const a = makeCtx({ seed: 42 });
    const b = makeCtx({ seed: 42 });
    run(uuid, { var: 'u' }, a);
    run(uuid, { var: 'u' }, b);
    expect(a.scope.u).toBe(b.scope.u);
  });

  it('prints the id when var is omitted, and writes dotted names', () => {
    const ctx = makeCtx();
    expect(run(uuid, {}, ctx)).toMatch(UUID_V4);
    run(uuid, { var: 'ids.' }, ctx);
    run(uuid, { var: 'ids.' }, ctx);
    expect((ctx.scope.ids as PhpArray).values().every((v) => UUID_V4.test(v as string))).toBe(true);
    expect((ctx.scope.ids as PhpArray).size).toBe(2);
  });
});

function drawn(attrs: Record<string, Value>, seed: number): Value[] {
  const ctx = makeCtx({ seed });
  run(lottery, { var: 'w', ...attrs }, ctx);
  const w = ctx.scope.w;
  expect(w).toBeInstanceOf(PhpArray);
  expect((w as PhpArray).isList).toBe(true);
  return (w as PhpArray).values();
}

function tally(xs: Value[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of xs) m.set(toStr(x), (m.get(toStr(x)) ?? 0) + 1);
  return m;
}

describe('{lottery}', () => {
  it('keeps its invariants over many seeds and shapes', () => {
    const g = new Gen(21);
    for (let seed = 0; seed < 400; seed++) {
      const n = g.int(0, 30);
      const ids = Array.from({ length: n }, () =>
        g.pick<Value>([g.int(1, 40), String(g.int(1, 40)), `id${g.int(1, 5)}`]),
      );
      const exclude = Array.from({ length: g.int(0, 8) }, () => g.pick<Value>([g.int(1, 40), String(g.int(1, 40))]));
      const cnt = g.int(-1, 50);
      const duplicate = g.int(-1, 3);
      const out = drawn({ ids: PhpArray.fromList(ids), exclude_ids: PhpArray.fromList(exclude), cnt, duplicate }, seed);

      const excluded = new Set(exclude.map(toStr));
      const eligible = new Set(ids.map(toStr).filter((k) => !excluded.has(k)));
      const perId = Math.max(0, duplicate) + 1;
      expect(out.length).toBe(Math.max(0, Math.min(cnt, eligible.size * perId)));
      for (const [k, times] of tally(out)) {
        expect(eligible.has(k)).toBe(true);
        expect(times).toBeLessThanOrEqual(perId);
      }
      // Drawn values are the caller's values, types kept.
      for (const v of out) expect(ids).toContain(v);
    }
  });

  it('draws every id about equally often', () => {
    const counts = new Map<string, number>();
    for (let seed = 0; seed < 2000; seed++) {
      for (const [k, n] of tally(drawn({ ids: PhpArray.fromList([1, 2, 3, 4, 5]), cnt: 2 }, seed)))
        counts.set(k, (counts.get(k) ?? 0) + n);
    }
    expect(counts.size).toBe(5);
    for (const n of counts.values()) expect(Math.abs(n - 800)).toBeLessThan(120);
  });

  it('draws each id once by default, in random order, and all of them when cnt is larger', () => {
    const ids = [10, 20, 30, 40];
    const orders = new Set<string>();
    for (let seed = 0; seed < 50; seed++) {
      const out = drawn({ ids: PhpArray.fromList(ids), cnt: 10 }, seed);
      expect([...out].sort()).toEqual(ids);
      orders.add(out.join(','));
    }
    expect(orders.size).toBeGreaterThan(10);
  });

  it('defaults cnt to 1 and treats 1 and "1" as one id', () => {
    expect(drawn({ ids: PhpArray.fromList([7, 8]) }, 3).length).toBe(1);
    expect(drawn({ ids: PhpArray.fromList([1, '1', 1]), cnt: 5 }, 3)).toEqual([1]);
    expect(drawn({ ids: PhpArray.fromList([1, 2]), exclude_ids: PhpArray.fromList(['2']), cnt: 5 }, 3)).toEqual([1]);
  });

  it('is reproducible for a seed', () => {
    const attrs = { ids: PhpArray.fromList(Array.from({ length: 50 }, (_, i) => i)), cnt: 10, duplicate: 2 };
    expect(drawn(attrs, 8)).toEqual(drawn(attrs, 8));
    expect(drawn(attrs, 8)).not.toEqual(drawn(attrs, 9));
  });

  it('gives an empty list with a warning when ids is not an array', () => {
    const ctx = makeCtx();
    run(lottery, { var: 'w', cnt: 3 }, ctx);
    expect((ctx.scope.w as PhpArray).size).toBe(0);
    expect(ctx.warnings.length).toBe(1);
  });

  it('guards the size of the result', () => {
    const ctx = makeCtx();
    expect(() =>
      run(lottery, { var: 'w', ids: PhpArray.fromList([1, 2]), cnt: 5_000_000, duplicate: 10_000_000 }, ctx),
    ).toThrow(LimitError);
  });
});
