/**
 * The golden corpus (Smarty 2.6.33 on PHP 8.2) cases of area "modifier" and "php" that use
 * only this folder's modifiers. Modifier cases are evaluated here with a tiny reader for
 * `{$var|mod:arg|...}` tags (variables, quoted strings, numbers; Smarty 2's `@` rule) that
 * calls run() directly; the full engine is tested elsewhere. php cases call the modifier.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromJS } from '../../../src/value/value.js';
import { Unsupported, render as renderWith } from '../../support/mini-template.js';
import { toStr } from '../../../src/value/convert.js';
import { toBytes } from '../../../src/value/bytes.js';
import { htmlspecialchars } from '../../../src/php/string/html.js';
import { modifiers, runModifier } from './support.js';

interface Golden {
  id: string;
  area: string;
  template?: string;
  vars?: Record<string, unknown>;
  expect: unknown;
  expect_base64?: string;
  fn?: string;
  args?: unknown[];
}

const GOLDEN: Golden[] = readFileSync('/work/shared/conformance/smarty2-golden.jsonl', 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as Golden);

const render = (t: string, vars: Parameters<typeof renderWith>[1]) =>
  renderWith(
    t,
    vars,
    (name, input, args) => runModifier(name, input, args),
    (name) => modifiers.has(name),
  );

const cases = GOLDEN.filter((g) => g.area === 'modifier' || g.area === 'php');
const runnable: { g: Golden; run: () => string | Buffer }[] = [];
const skipped: string[] = [];
for (const g of cases) {
  if (g.area === 'php') {
    const args = (g.args ?? []).map((a) => fromJS(a));
    if (g.fn === 'htmlspecialchars') runnable.push({ g, run: () => htmlspecialchars(args[0] as string) });
    else if (g.fn && modifiers.get(g.fn)?.origin === 'php')
      runnable.push({ g, run: () => toStr(runModifier(g.fn!, args[0], args.slice(1))) });
    else skipped.push(g.id);
    continue;
  }
  const vars = Object.fromEntries(Object.entries(g.vars ?? {}).map(([k, v]) => [k, fromJS(v)]));
  try {
    render(g.template!, vars);
    runnable.push({ g, run: () => render(g.template!, vars) });
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
    skipped.push(g.id);
  }
}

describe('golden corpus cases that use string/html modifiers', () => {
  it('finds enough of them', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(40);
  });
  for (const { g, run } of runnable) {
    it(`${g.id}: ${g.template ?? g.fn}`, () => {
      const out = run();
      if (g.expect_base64) expect(Buffer.from(toBytes(out as string)).toString('base64')).toBe(g.expect_base64);
      else expect(out).toBe(g.expect);
    });
  }
});
