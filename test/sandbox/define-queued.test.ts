/**
 * A new template's define is queued ahead of its render rather than awaited
 * (src/sandbox/isolate-host.ts `renderNow`). These check what that must not lose: the order of
 * define and render, a changed template replacing the old one, and a define that fails or runs
 * out of time, which must end as an error for that render and leave the tenant's next render sound.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { IsolateHost } from '../../src/sandbox/isolate-host.js';
import { renderRequest } from '../../src/sandbox/request.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { compile } from '../../src/compiler/index.js';

const host = new IsolateHost(128);
afterAll(() => host.retire());

type Template = { id: string; code: string; filename: string };
const template = (id: string, source: string): Template => ({
  id,
  code: compile(source, { name: id, id }).code,
  filename: `${id.replace(/\W/g, '_')}.js`,
});
const request = (name: string) =>
  renderRequest({
    templateName: name,
    now: 1700000000,
    site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
    vars: { x: 'ok' },
    seed: Array.from({ length: 16 }, () => 7),
  });
const render = (t: Template, limits = DEFAULT_LIMITS) => host.render(t, request(t.id), limits, null);

describe('a template is defined in the queue ahead of its render', () => {
  it('many new templates sent at once each render their own output', async () => {
    const ts = Array.from({ length: 40 }, (_, i) => template(`q${i}.tpl`, `${i}:{$x|upper}`));
    const results = await Promise.all(ts.map((t) => render(t)));
    expect(results.map((r) => r.output)).toEqual(ts.map((_, i) => `${i}:OK`));
  });

  it('a changed template under the same id renders its new code', async () => {
    expect((await render(template('same.tpl', 'one {$x}'))).output).toBe('one ok');
    expect((await render(template('same.tpl', 'two {$x|upper}'))).output).toBe('two OK');
  });

  it('a define that throws fails its render, and the next renders are sound', async () => {
    const r = await render({ id: 'bad.tpl', code: 'throw new Error("define failed");', filename: 'bad.js' });
    expect(r.error?.code).toBe('E_SANDBOX_CRASHED');
    expect(r.output).toBeUndefined();
    expect((await render(template('after-bad.tpl', 'fine {$x}'))).output).toBe('fine ok');
    // The failed id was not kept as defined: a good version of it loads.
    expect((await render(template('bad.tpl', 'mended {$x}'))).output).toBe('mended ok');
  });

  it('a define that runs out of CPU time fails its render, and the next render is sound', async () => {
    const r = await render(
      { id: 'spin.tpl', code: 'for (;;) {}', filename: 'spin.js' },
      { ...DEFAULT_LIMITS, cpuMs: 50 },
    );
    expect(r.error?.code).toBe('E_SANDBOX_CRASHED');
    expect((await render(template('after-spin.tpl', 'fine {$x}'))).output).toBe('fine ok');
  });
});
