import { defineFunction } from '../types.js';
import { PhpArray } from '../../value/php-array.js';
import { toBool, toStr } from '../../value/convert.js';
import { checkSplitLength } from '../../value/limits.js';

function splitValues(s: string, delimiter: string): string[] {
  checkSplitLength(s, delimiter, 'cycle');
  return s.split(delimiter);
}

interface CycleState {
  values: string[];
  index: number;
  delimiter: string;
}

/** Compared element by element: JSON.stringify of a template's list is one native call as long as all its strings. */
function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
    const name = toStr(attrs.name ?? 'default');
    let c = cycles.get(name);
    if (!c) {
      c = { values: [], index: 0, delimiter: ',' };
      cycles.set(name, c);
    }
    if (attrs.delimiter !== undefined && attrs.delimiter !== null) c.delimiter = toStr(attrs.delimiter);
    if (attrs.values !== undefined && attrs.values !== null) {
      const values =
        attrs.values instanceof PhpArray
          ? attrs.values.values().map(toStr)
          : splitValues(toStr(attrs.values), c.delimiter);
      if (!sameList(values, c.values)) {
        c.values = values;
        c.index = 0;
      }
    } else if (c.values.length === 0) {
      ctx.warn('cycle: missing "values" parameter');
      return '';
    }
    if (attrs.reset !== undefined && toBool(attrs.reset)) c.index = 0;
    const current = c.values[c.index] ?? '';
    let out = '';
    if (attrs.assign !== undefined && attrs.assign !== null) ctx.assign(toStr(attrs.assign), current);
    else if (attrs.print === undefined || attrs.print === null || toBool(attrs.print)) out = current;
    if (attrs.advance === undefined || attrs.advance === null || toBool(attrs.advance)) {
      c.index = c.index + 1 >= c.values.length ? 0 : c.index + 1;
    }
    return out;
  },
});
