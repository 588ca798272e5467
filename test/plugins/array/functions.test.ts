import { describe, expect, it } from 'vitest';
import type { Value } from '../../../src/value/value.js';
import { toTagged } from '../../support/php-oracle.js';
import type { FunctionPlugin, PluginContext } from '../../../src/plugins/types.js';
import { plugins } from '../../../src/plugins/array/index.js';
import { phpGolden } from '../../support/php-golden.js';
import { phpEval, assoc, list } from '../../support/php-call.js';
import { testPluginContext } from '../../support/plugin-context.js';

/** A render context over a plain scope (the real assign rules). */
function fakeContext(vars: Record<string, Value> = {}): PluginContext {
  return testPluginContext(vars);
}

const fn = (name: string) => plugins.find((p) => p.name === name) as FunctionPlugin;
const run = (name: string, attrs: Record<string, Value>, ctx: PluginContext) => fn(name).run!(attrs, ctx);

describe('assign_array', () => {
  it('splits values, empty values give an empty array', () => {
    const ctx = fakeContext();
    run('assign_array', { var: 'x', values: 'a,b,,c', delimiter: ',' }, ctx);
    expect(toTagged(ctx.get('x'))).toEqual(toTagged(list('a', 'b', '', 'c')));
    run('assign_array', { var: 'e', values: '', delimiter: ',' }, ctx);
    expect(toTagged(ctx.get('e'))).toEqual(toTagged(list()));
    run('assign_array', { var: 'n', values: 12, delimiter: ',' }, ctx);
    expect(toTagged(ctx.get('n'))).toEqual(toTagged(list('12')));
  });
  it('with keys adds to an existing array', () => {
    const ctx = fakeContext({ x: assoc(['keep', 1], ['a', 'old']) });
    run('assign_array', { var: 'x', values: '1;2', delimiter: ';', keys: 'a,b' }, ctx);
    expect(toTagged(ctx.get('x'))).toEqual(toTagged(assoc(['keep', 1], ['a', '1'], ['b', '2'])));
  });
});

describe('append and assign_array_set', () => {
  it('append pushes, sets an index, and creates the array', () => {
    const original = list('a');
    // The test keeps a second reference, so it marks the array shared, as the engine marks every
    // array it hands to a plugin from a variable (copy-on-write, src/value/php-array.ts).
    original.shared = true;
    const ctx = fakeContext({ l: original, s: 'scalar' });
    run('append', { var: 'l', value: 'b' }, ctx);
    run('append', { var: 'l', value: 'c', index: 'k' }, ctx);
    run('append', { var: 'l', value: 'd' }, ctx);
    run('append', { var: 'new', value: 1 }, ctx);
    run('append', { var: 's', value: 2, index: '5' }, ctx);
    expect(toTagged(ctx.get('l'))).toEqual(toTagged(assoc([0, 'a'], [1, 'b'], ['k', 'c'], [2, 'd'])));
    expect(toTagged(ctx.get('new'))).toEqual(toTagged(list(1)));
    expect(toTagged(ctx.get('s'))).toEqual(toTagged(assoc([5, 2])));
    expect(original.size).toBe(1); // the array we started from is not mutated
  });
  it('assign_array_set leaves the original alone', () => {
    const from = assoc(['x', 1], ['y', 2]);
    const ctx = fakeContext();
    run('assign_array_set', { var: 'b', from, key: 'z', value: 3 }, ctx);
    run('assign_array_set', { var: 'c', from, value: 'pushed' }, ctx);
    expect(toTagged(ctx.get('b'))).toEqual(toTagged(assoc(['x', 1], ['y', 2], ['z', 3])));
    expect(toTagged(ctx.get('c'))).toEqual(toTagged(assoc(['x', 1], ['y', 2], [0, 'pushed'])));
    expect(from.size).toBe(2);
  });
});

describe('assign_array_diff / assign_array_intersect against php', () => {
  const a1 = assoc(['a', 'green'], [0, 'red'], [1, 'blue'], ['k', '1']);
  const a2 = assoc(['b', 'green'], [1, 'yellow'], [0, 'red'], ['k', 1]);
  const modes: [string, Record<string, Value>, string][] = [
    ['assign_array_diff', { diff_mode: 'normal' }, 'array_diff'],
    ['assign_array_diff', { diff_mode: 'key' }, 'array_diff_key'],
    ['assign_array_intersect', { intersect_mode: 'normal' }, 'array_intersect'],
    ['assign_array_intersect', { intersect_mode: 'assoc' }, 'array_intersect_assoc'],
    ['assign_array_intersect', { intersect_mode: 'key' }, 'array_intersect_key'],
  ];
  const php = phpGolden(
    'plugins/array/assign-array-set-ops',
    modes.map(([, , f]) => phpEval([a1, a2], `return ${f}($args[0], $args[1]);`)),
    { labels: modes.map((m) => m[2]) },
  );
  it.each(modes.map((m, i) => [m[2], i] as const))('%s', (_f, i) => {
    const [name, mode] = modes[i];
    const ctx = fakeContext();
    run(name, { var: 'r', array1: a1, array2: a2, ...mode }, ctx);
    expect(toTagged(ctx.get('r'))).toEqual(php[i].value);
  });
  it('treats a non-array operand as empty', () => {
    const ctx = fakeContext();
    run('assign_array_diff', { var: 'r', array1: a1, array2: null, diff_mode: 'normal' }, ctx);
    expect(toTagged(ctx.get('r'))).toEqual(toTagged(a1));
  });
});

describe('declarations', () => {
  it('every plugin has a name, summary and at least one example', () => {
    for (const p of plugins) {
      expect(p.summary.length, p.name).toBeGreaterThan(10);
      expect(p.examples.length, p.name).toBeGreaterThan(0);
    }
    expect(new Set(plugins.map((p) => p.name)).size).toBe(plugins.length);
  });
});
