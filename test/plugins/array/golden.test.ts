/**
 * The golden cases (from real PHP 8.2 / Smarty 2.6.33) that use these functions. "php" cases
 * are calls; "modifier" templates are evaluated here by calling the plugins' run() in the
 * order the template applies them (the @ rule done by hand).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PhpArray, type Value } from '../../../src/value/value.js';
import { toStr } from '../../../src/value/convert.js';
import { toTagged } from '../../support/php-oracle.js';
import { jsonValue } from '../../support/json-value.js';
import { arrayIntersect } from '../../../src/php/array/set-ops.js';
import { plugins as arrayPlugins } from '../../../src/plugins/array/index.js';
import { plugins as jsonPlugins } from '../../../src/plugins/json/index.js';
import type { ModifierPlugin } from '../../../src/plugins/types.js';
import { callModifier } from '../../support/php-call.js';
import { goldenPath } from '../../support/golden.js';

const lines = readFileSync(goldenPath(), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '');
// Parsed with our own parser so that key order is PHP's, not JavaScript's.
const golden = new Map(
  lines.map((l) => {
    const v = jsonValue(l) as PhpArray;
    return [v.get('id') as string, v] as const;
  }),
);

const mods = new Map(
  [...arrayPlugins, ...jsonPlugins].filter((p) => p.kind === 'modifier').map((p) => [p.name, p as ModifierPlugin]),
);
const m = (name: string, input: Value, ...args: Value[]) => callModifier(mods.get(name)!, input, ...args);
/** A modifier without @: mapped over the elements of an array (Smarty 2). */
const mapped = (name: string, input: Value, ...args: Value[]) =>
  input instanceof PhpArray
    ? PhpArray.fromEntries(input.entries().map(([k, v]) => [k, m(name, v, ...args)] as const))
    : m(name, input, ...args);

const phpFns: Record<string, (...args: Value[]) => Value> = {
  json_encode: (v, flags) => m('json_encode', v, flags),
  array_diff: (a, ...rest) => m('array_diff', a, ...rest),
  array_intersect: (a, ...rest) => arrayIntersect(a as PhpArray, rest as PhpArray[]),
};

describe('golden php cases', () => {
  const ids = [...golden.values()]
    .filter((g) => g.get('area') === 'php' && (g.get('fn') as string) in phpFns)
    .map((g) => g.get('id') as string);
  it('covers the json and array cases', () => expect(ids.length).toBe(8));
  it.each(ids)('%s', (id) => {
    const g = golden.get(id)!;
    const args = (g.get('args') as PhpArray).values();
    const out = phpFns[g.get('fn') as string](...args);
    expect(toTagged(out)).toEqual(toTagged(g.get('expect')));
  });
});

type Render = (vars: PhpArray) => string;
const templates: Record<string, Render> = {
  // {$n|count|@json_encode}
  'modifier-094': (v) => toStr(m('json_encode', mapped('count', v.get('n')))),
  // {$d|@json_encode}
  'modifier-105': (v) => toStr(m('json_encode', v.get('d'))),
  // {$s|json_encode}|{$n|json_encode}|{$d|@json_encode:$smarty.const.JSON_UNESCAPED_UNICODE}
  'modifier-106': (v) =>
    [mapped('json_encode', v.get('s')), mapped('json_encode', v.get('n')), m('json_encode', v.get('d'), 256)]
      .map(toStr)
      .join('|'),
  // {','|implode:$l}|{' / '|implode:$m}
  'modifier-107': (v) => [m('implode', ',', v.get('l')), m('implode', ' / ', v.get('m'))].map(toStr).join('|'),
  // {','|explode:$csv|@json_encode}|{assign var=parts value=','|explode:$csv}{$parts|@count}|{$parts.3}
  'modifier-108': (v) => {
    const parts = m('explode', ',', v.get('csv')) as PhpArray;
    return [m('json_encode', m('explode', ',', v.get('csv'))), m('count', parts), parts.get(3)].map(toStr).join('|');
  },
};

describe('golden modifier templates', () => {
  it.each(Object.keys(templates))('%s', (id) => {
    const g = golden.get(id)!;
    expect(templates[id](g.get('vars') as PhpArray)).toBe(g.get('expect'));
  });
});
