/** Runtime warnings carry the line and column of the statement that raised them (W_RUNTIME diagnostics). */
import { expect, it } from 'vitest';
import { testEngine } from '../support/engine.js';

const engine = testEngine({ templates: { 'part.tpl': 'x\n  {$v|substr:"q"}' } });
const runtime = (ds: { code: string; name: string; line: number; column: number }[]) =>
  ds.filter((d) => d.code === 'W_RUNTIME').map((d) => `${d.name}:${d.line}:${d.column}`);

it('each warning is a W_RUNTIME diagnostic at its statement, in the order raised', async () => {
  const r = await engine.render('a\n{$x|number_format:"abc"}\n\n   {assign var=y value=$z|substr:"q"}', {
    name: 'page.tpl',
  });
  expect(r.warnings).toHaveLength(2);
  expect(runtime(r.diagnostics)).toEqual(['page.tpl:2:1', 'page.tpl:4:4']);
  expect(r.diagnostics.find((d) => d.code === 'W_RUNTIME')!.message).toBe(r.warnings[0]);
  expect(r.diagnostics.find((d) => d.code === 'W_RUNTIME')!.frame).toContain('> 2 | {$x|number_format:"abc"}');
});

it('a warning raised in an included template names that template', async () => {
  const r = await engine.render('{include file="part.tpl"}', { name: 'page.tpl' });
  expect(runtime(r.diagnostics)).toEqual(['part.tpl:2:3']);
});

it('inside a loop, each pass is a warning of its own at the same place', async () => {
  const r = await engine.render('{foreach from=$l item=i}\n{$i|@number_format}{/foreach}', {
    name: 'page.tpl',
    vars: { l: [[1], [2]] },
  });
  expect(runtime(r.diagnostics)).toEqual(['page.tpl:2:1', 'page.tpl:2:1']);
});
