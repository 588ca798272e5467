/**
 * A tenant's context is replaced once TEMPLATES_PER_CONTEXT (200) templates were defined in it
 * (src/sandbox/isolate-host.ts); a template's compiled script is not kept past its run. Renders
 * on both sides of a replacement, of new templates and of ones defined in the old context, must
 * come out right.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';

const engine = createEngine({ workers: 0 });
afterAll(() => engine.close());

const source = (i: number) => `{$x|upper}-${i}-{$i+${i}}`;
const render = async (i: number) =>
  (
    await engine.render(source(i), {
      name: `t${i}.tpl`,
      vars: { x: 'ok', i: 1 },
      identity: { tenant: 'many-templates' },
    })
  ).output;

describe('context replacement after many templates', () => {
  it('450 templates, then the first ones again, render right across two replacements', async () => {
    for (let i = 0; i < 450; i++) expect(await render(i)).toBe(`OK-${i}-${i + 1}`);
    for (let i = 0; i < 20; i++) expect(await render(i)).toBe(`OK-${i}-${i + 1}`);
  });

  it('a template whose source changed under the same name renders its new source', async () => {
    const named = (src: string) =>
      engine.render(src, { name: 'edited.tpl', vars: { x: 'v' }, identity: { tenant: 'many-templates' } });
    for (let v = 0; v < 210; v++) expect((await named(`${v}:{$x}`)).output).toBe(`${v}:v`);
  });
});
