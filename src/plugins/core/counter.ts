import { defineFunction } from '../types.js';
import { toBool, toInt64, toStr } from '../../value/convert.js';
import { add, sub } from '../../value/arith.js';
import type { PhpNumber, Value } from '../../value/value.js';

interface CounterState {
  /** PHP's `+=` / `-=` on an int: past PHP_INT_MAX the count goes on as a float. */
  count: PhpNumber;
  /** As given, as Smarty 2 keeps it: each step is PHP's `+=` of it, so `skip=0.5` counts in halves (D312). */
  skip: Value;
  direction: string;
  assign: string | null;
}

export default defineFunction({
  kind: 'function',
  name: 'counter',
  summary:
    'Prints a count that advances on every call (Smarty 2). State is kept per name for the whole render: `start` resets, `skip` and `direction` are remembered, `assign` is remembered and stops printing.',
  attrs: {
    name: { type: 'string', default: 'default' },
    start: { type: 'int' },
    skip: { type: 'number' },
    direction: { type: 'string', doc: '`down` counts down; anything else counts up.' },
    print: { type: 'bool' },
    assign: { type: 'varname' },
  },
  examples: [
    {
      template: '{counter start=5 skip=2 name=c}{counter name=c}{counter name=c direction=down}{counter name=c}',
      output: '5797',
    },
    { template: '{counter print=false assign=z}{$z}{counter}{$z}', output: '12' },
  ],
  run(attrs, ctx) {
    const counters = ctx.state('counter', () => new Map<string, CounterState>());
    const name = toStr(attrs.name ?? 'default');
    let c = counters.get(name);
    if (!c) {
      c = { count: 1, skip: 1, direction: 'up', assign: null };
      counters.set(name, c);
    }
    if (attrs.start !== undefined && attrs.start !== null) c.count = toInt64(attrs.start);
    if (attrs.assign !== undefined && attrs.assign !== null) c.assign = toStr(attrs.assign);
    if (c.assign !== null) ctx.assign(c.assign, c.count);
    const print = attrs.print !== undefined && attrs.print !== null ? toBool(attrs.print) : c.assign === null;
    const out = print ? toStr(c.count) : '';
    if (attrs.skip !== undefined && attrs.skip !== null) c.skip = attrs.skip;
    if (attrs.direction !== undefined && attrs.direction !== null) c.direction = toStr(attrs.direction);
    c.count = c.direction === 'down' ? sub(c.count, c.skip) : add(c.count, c.skip);
    return out;
  },
});
