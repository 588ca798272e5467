import { defineFunction } from '../types.js';
import { PhpArray } from '../../value/php-array.js';
import { toBool, toStr } from '../../value/convert.js';
import { looseEq } from '../../value/compare.js';
import type { Value } from '../../value/value.js';
import { checkSplitLength } from '../../value/limits.js';

/**
 * A name's cycle as Smarty 2.6.33 keeps it (D312): the `values` as given (a string or an array),
 * split again at each call with the delimiter of that moment, so a later `delimiter` re-splits
 * the same values without going back to the first. New values reset the position when they are
 * not `==` the kept ones, PHP 8's loose comparison: `"a,b"` after the array `['a', 'b']` resets,
 * the same string with another delimiter does not, and values `==` the kept ones replace them
 * without a reset (`"01"` after `"1"`).
 */
interface CycleState {
  values: Value;
  index: number;
  delimiter: string;
  /** The split of `values` by `splitBy`, kept while neither changes (a string is split once). */
  split: Value[] | null;
  splitBy: string;
}

/** A string's values split by the delimiter of this call (kept while neither changes). */
function splitOf(c: CycleState): Value[] {
  if (c.split === null || c.splitBy !== c.delimiter) {
    const s = toStr(c.values);
    checkSplitLength(s, c.delimiter, 'cycle');
    c.split = s.split(c.delimiter);
    c.splitBy = c.delimiter;
  }
  return c.split;
}

const countOf = (c: CycleState): number => (c.values instanceof PhpArray ? c.values.size : splitOf(c).length);

/** `$cycle_array[$index]`: an array's element by its key (an associative array has none at 0). */
function current(c: CycleState): Value {
  if (c.values instanceof PhpArray) return c.values.has(c.index) ? c.values.get(c.index) : null;
  return splitOf(c)[c.index] ?? null;
}

export default defineFunction({
  kind: 'function',
  name: 'cycle',
  summary:
    'Cycles through a list of values, printing the next one on each call (Smarty 2). `values` is a delimited string or an array; passing different values resets the position.',
  attrs: {
    name: { type: 'string', default: 'default' },
    values: { type: 'mixed' },
    delimiter: { type: 'string' },
    print: { type: 'bool' },
    advance: { type: 'bool' },
    reset: { type: 'bool' },
    assign: { type: 'varname' },
  },
  examples: [
    { template: "{section name=r loop=3}{cycle values='odd,even'} {/section}", output: 'odd even odd ' },
    {
      template: "{cycle name=x values='1;2;3' delimiter=';'}{cycle name=x}{cycle name=x advance=false}{cycle name=x}",
      output: '1233',
    },
  ],
  run(attrs, ctx) {
    const cycles = ctx.state('cycle', () => new Map<string, CycleState>());
    // Smarty 2: `empty($params['name'])`, so "" and "0" are the default cycle too.
    const name = toBool(attrs.name ?? null) ? toStr(attrs.name) : 'default';
    let c = cycles.get(name);
    if (attrs.values !== undefined && attrs.values !== null) {
      if (!c) {
        c = { values: attrs.values, index: 0, delimiter: ',', split: null, splitBy: ',' };
        cycles.set(name, c);
      } else if (c.values !== attrs.values) {
        if (!looseEq(c.values, attrs.values)) c.index = 0;
        // Kept even when `==`: "01" after "1" goes on from the position with "01" (PHP assigns).
        c.values = attrs.values;
        c.split = null;
      }
    } else if (!c) {
      ctx.warn('cycle: missing "values" parameter');
      return '';
    }
    if (attrs.delimiter !== undefined && attrs.delimiter !== null) c.delimiter = toStr(attrs.delimiter);
    if (attrs.reset !== undefined && toBool(attrs.reset)) c.index = 0;
    const value = current(c);
    let out = '';
    if (attrs.assign !== undefined && attrs.assign !== null) ctx.assign(toStr(attrs.assign), value);
    else if (attrs.print === undefined || attrs.print === null || toBool(attrs.print)) out = toStr(value);
    if (attrs.advance === undefined || attrs.advance === null || toBool(attrs.advance)) {
      c.index = c.index >= countOf(c) - 1 ? 0 : c.index + 1;
    }
    return out;
  },
});
