/**
 * A list of the vars whose elements are all values fromJS keeps as they are is converted by one
 * pass of type tests and a copy (src/value/value.ts `scalarsCopy`, D293): the same PHP array as
 * the element-by-element conversion, for each kind of element at the edge of that test, and a
 * value of its own (writing to it leaves the data and every other place that holds the list).
 */
import { describe, expect, it } from 'vitest';
import { fromVars } from '../../src/value/tables.js';
import { encodeTables } from '../../src/protocol/tables.js';
import { fromJS, toJS, PhpArray, PhpFloat, type Value } from '../../src/value/value.js';
import { assignVar } from '../../src/value/assign.js';
import { createEngine } from '../../src/index.js';

/** Each element converted alone (a hole as undefined), by a record's read, which takes no list path. */
const oneByOne = (xs: unknown[]) => Array.from(xs, (x) => (fromJS({ x }) as PhpArray).get('x'));

/** Type and value of each element, so that 1 and 1n, -0 and 0, a float box and a number differ. */
const kinds = (a: Value) =>
  (a as PhpArray).values().map((v) => {
    if (v instanceof PhpFloat) return ['float', v.value];
    if (v instanceof PhpArray) return ['array', toJS(v)];
    return [typeof v, Object.is(v, -0) ? '-0' : v];
  });

const LISTS: [string, unknown[]][] = [
  ['strings, booleans and null', ['a', '', true, false, null]],
  [
    'safe ints, -0, fractions, NaN and the infinities',
    [0, -0, 1, -1, 2 ** 53 - 1, -(2 ** 53 - 1), 0.5, NaN, Infinity, -Infinity],
  ],
  ['2^53 (an int only as a bigint)', [1, 2 ** 53]],
  ['-2^53', [-(2 ** 53), 1]],
  ['1e20 (a float, past int64)', ['x', 1e20]],
  [
    'a hole',
    (() => {
      const a = ['a'];
      a[2] = 'c';
      return a;
    })(),
  ],
  ['undefined', ['a', undefined]],
  ['a bigint', [1, 5n]],
  ['a nested list', [1, [2]]],
  ['a record', [{ a: 1 }]],
  ['the empty list', []],
];

describe('a list of scalars in the vars', () => {
  it.each(LISTS)('with %s converts as its elements one by one', (_, xs) => {
    const expected = oneByOne(xs);
    for (const a of [fromJS(structuredClone(xs)), fromVars(structuredClone(xs))]) {
      expect(a).toBeInstanceOf(PhpArray);
      expect((a as PhpArray).isList).toBe(true);
      expect(kinds(a)).toEqual(kinds(PhpArray.fromList(expected)));
    }
  });

  it('is a copy: a write leaves the data and the other places that hold the same list', () => {
    const tags = ['x', 'y'];
    const data = { a: tags, b: { c: tags } };
    const scope: Record<string, Value> = {};
    for (const [k, v] of Object.entries(data)) scope[k] = fromVars(v);
    assignVar(scope, 'a.', 'z');
    assignVar(scope, 'a.0', 'w');
    expect(toJS(scope.a as PhpArray)).toEqual(['w', 'y', 'z']);
    expect(toJS((scope.b as PhpArray).get('c'))).toEqual(['x', 'y']);
    expect(tags).toEqual(['x', 'y']);
  });

  it('in a table row, a write to the cell copies it and a second row keeps its own', () => {
    const rows = [{ tags: ['a', 'b'] }, { tags: ['c'] }];
    const t = fromVars(structuredClone(encodeTables({ rows })!.rows)) as PhpArray;
    const first = (t.get(0) as PhpArray).get('tags') as PhpArray;
    expect(first.shared).toBe(true);
    const scope: Record<string, Value> = { t };
    assignVar(scope, 't.0.tags.', 'z');
    expect(toJS((scope.t as PhpArray).get(0))).toEqual({ tags: ['a', 'b', 'z'] });
    expect(toJS(first)).toEqual(['a', 'b']);
    expect(toJS((scope.t as PhpArray).get(1))).toEqual({ tags: ['c'] });
  });

  it('renders as before through the engine: a column of lists read, written to and counted', async () => {
    const engine = createEngine({ workers: 0 });
    try {
      const rows = [{ cells: [3, 1, 2] }, { cells: [9, 2 ** 53] }];
      const r = await engine.render(
        '{foreach from=$rows item=r}{$r.cells|@join:","}/{/foreach}{assign var="rows.0.cells." value=7}' +
          '{$rows[0].cells|@join:","} {$rows[1].cells[1]} {$rows[1].cells|@count}',
        { vars: { rows } },
      );
      expect(r.output).toBe('3,1,2/9,9007199254740992/3,1,2,7 9007199254740992 2');
      expect(rows[0]!.cells).toEqual([3, 1, 2]);
      // No list of rows: the vars go plain, and fromJS converts the lists.
      const grid = [
        [1.5, -0, true],
        ['a', null],
      ];
      const p = await engine.render(
        '{assign var="grid.1." value=2}{$grid[0]|@join:","}/{$grid[1]|@join:","}/{$grid[1]|@count}{if $grid[0][0] === 1.5} f{/if}',
        { vars: { grid } },
      );
      expect(p.output).toBe('1.5,0,1/a,,2/3 f');
      expect(grid[1]).toEqual(['a', null]);
    } finally {
      await engine.close();
    }
  });
});
