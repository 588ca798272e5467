/**
 * Variable scopes have no prototype (src/value/assign.ts `newScope`): a template variable named
 * like a member of Object.prototype is a name like any other, in the top scope, in an included
 * template's copy of it, and in a {function}'s own scope.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';

const engine = createEngine({
  workers: 0,
  templates: { 'inc.tpl': '<{$toString}|{$constructor}|{$mine}>' },
  functions: { f: '{assign var=seen value="[`$toString`|`$x`]"}{return value=$seen}' },
});
afterAll(() => engine.close());

const render = async (source: string, vars?: Record<string, unknown>) =>
  (await engine.render(source, { name: 'scope.tpl', vars })).output;

const INHERITED = [
  'toString',
  'constructor',
  'hasOwnProperty',
  'valueOf',
  '__proto__',
  '__defineGetter__',
  'isPrototypeOf',
];

describe('names Object.prototype has are plain template variables', () => {
  it('unassigned, each prints nothing', async () => {
    expect(await render(INHERITED.map((n) => `[{$${n}}]`).join(''))).toBe('[]'.repeat(INHERITED.length));
  });

  it('assigned, each holds its value', async () => {
    const src =
      INHERITED.map((n, i) => `{assign var=${n} value=${i}}`).join('') + INHERITED.map((n) => `{$${n}}`).join(',');
    expect(await render(src)).toBe(INHERITED.map((_, i) => i).join(','));
  });

  it('given as vars, own keys included (__proto__ from JSON text)', async () => {
    const vars = JSON.parse('{"__proto__": "p", "constructor": "c", "toString": "t"}') as Record<string, unknown>;
    expect(await render('{$__proto__}{$constructor}{$toString}{$valueOf}', vars)).toBe('pct');
  });

  it("an {include}'s copy of the scope and a {function}'s own scope", async () => {
    expect(
      await render('{include file="inc.tpl" mine=1}{assign var=constructor value=2}{include file="inc.tpl"}'),
    ).toBe('<||1><|2|>');
    expect(await render('{assign var=toString value=9}{function name=f var=r x=1}{$r}{$toString}')).toBe('[|1]9');
  });
});
