/**
 * A spare whose warm-up fails after a tenant took it (src/sandbox/isolate-cache.ts `render`,
 * isolate-host.ts `warmingUp`, D258): the spare is disposed and the tenant's render, which waited
 * for the warm-up, runs on a fresh isolate instead of failing with it (it failed
 * E_SANDBOX_CRASHED, "retired before the render started"). The warm-up's first render is made to
 * fail here, and the tenant takes the spare at the moment that render begins.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { compile } from '../../src/compiler/index.js';
import type { CompiledTemplate } from '../../src/protocol/render.js';
import type { IsolateHost } from '../../src/sandbox/isolate-host.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { renderRequest } from '../../src/sandbox/request.js';

/** Called as the warm-up's render `i` begins (its template is asked for just before it runs). */
const hooks = vi.hoisted(() => ({ onWarmupRender: (_i: number): void => {} }));

vi.mock('../../src/sandbox/warmup.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/sandbox/warmup.js')>();
  // Code that throws as it is defined: the render answers an error, and the warm-up retires the spare.
  const failing: CompiledTemplate = {
    id: 'smartcage-warmup',
    code: 'throw new Error("warm-up fails")',
    filename: 'w.js',
  };
  return {
    ...real,
    warmupTemplate: (i: number) => {
      hooks.onWarmupRender(i);
      return i === 0 ? failing : real.warmupTemplate(i);
    },
  };
});

const { TenantIsolates } = await import('../../src/sandbox/isolate-cache.js');

const MB = 128;
const cache = new TenantIsolates({ reduceAfterMs: 0 });
afterAll(() => cache.close());

const template = (): CompiledTemplate => {
  const r = compile('{$x|upper}', { name: 'tenant.tpl', id: 'tenant.tpl' });
  return { id: 'tenant.tpl', code: r.code, filename: 'tenant.js' };
};
const request = () =>
  renderRequest({
    templateName: 'tenant.tpl',
    now: 1700000000,
    site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
    vars: { x: 'ok' },
    seed: Array.from({ length: 16 }, () => 7),
  });

describe('a spare whose warm-up fails', () => {
  it('is disposed, and the tenant that took it meanwhile renders on a fresh isolate', async () => {
    let spare: IsolateHost | undefined;
    const rendered = new Promise<Awaited<ReturnType<typeof cache.render>>>((resolve, reject) => {
      hooks.onWarmupRender = (i) => {
        if (i !== 0) return;
        hooks.onWarmupRender = () => {};
        spare = (cache.spares as unknown as { spares: Map<number, IsolateHost> }).spares.get(MB);
        // The tenant arrives as the failing warm-up render is about to run: it takes the spare.
        cache.render('tenant', MB, template(), request(), DEFAULT_LIMITS, null).then(resolve, reject);
        expect(cache.spares.has(MB), 'the tenant took the warming spare').toBe(false);
      };
    });
    cache.spares.prepare(MB);
    const r = await rendered;
    expect(r.error).toBeUndefined();
    expect(r.output).toBe('OK');
    expect(spare?.disposed, 'the spare whose warm-up failed').toBe(true);
    // A later render of the tenant uses the isolate that served it.
    expect((await cache.render('tenant', MB, template(), request(), DEFAULT_LIMITS, null)).output).toBe('OK');
  });
});
