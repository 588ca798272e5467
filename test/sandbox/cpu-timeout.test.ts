/**
 * A render stopped at its CPU limit (docs/decisions.md D249): a template that cannot call the
 * host leaves its isolate and context to the tenant, as a cut slice does (D140): the next render
 * is told `afterCut` and renders as in a fresh context, and the template's later renders go
 * asynchronously, so a worker's thread stays free for other tenants meanwhile. Any other breach
 * retires the isolate as before. No test asserts a wall-clock figure: the machine may be loaded.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { IsolateHost } from '../../src/sandbox/isolate-host.js';
import { renderRequest } from '../../src/sandbox/request.js';
import { DEFAULT_LIMITS, type SandboxLimits } from '../../src/sandbox/limits.js';
import { compile } from '../../src/compiler/index.js';
import { createEngine } from '../../src/index.js';
import type { CompiledTemplate } from '../../src/protocol/render.js';

const hosts: IsolateHost[] = [];
afterAll(() => hosts.forEach((h) => h.retire()));
const newHost = () => {
  const h = new IsolateHost(128);
  hosts.push(h);
  return h;
};

const template = (id: string, source: string, hostFree?: boolean): CompiledTemplate => {
  const r = compile(source, { name: id, id });
  return { id, code: r.code, filename: `${id}.js`, hostFree: hostFree ?? r.manifest.host.length === 0 };
};
const request = (name: string, vars: Record<string, unknown> = {}) =>
  renderRequest({
    templateName: name,
    now: 1700000000,
    site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
    vars,
    seed: Array.from({ length: 16 }, () => 7),
  });
const limits = (more: Partial<SandboxLimits> = {}): SandboxLimits => ({ ...DEFAULT_LIMITS, cpuMs: 150, ...more });

const ENDLESS =
  '{foreach from=$l item=i}{capture name=c}{section name=s loop=2000000000}{$i}{/section}{/capture}{/foreach}';
/** State the runtime's `finally` blocks restore, and loop and capture state that must start empty. */
const STATEFUL =
  '{foreach from=$l item=i name=f}{capture name=c}<{$i}>{/capture}{$smarty.foreach.f.iteration}{$smarty.capture.c}{/foreach}|{$smarty.capture.c}';

describe('a host-free render stopped at its CPU limit', () => {
  it('keeps the isolate, and the next renders in it start clean', async () => {
    const host = newHost();
    const endless = template('endless', ENDLESS);
    const stateful = template('stateful', STATEFUL);
    expect((await host.render(stateful, request('stateful', { l: ['a'] }), limits(), null)).output).toBe('1<a>|<a>');
    for (let i = 0; i < 3; i++) {
      const r = await host.render(endless, request('endless', { l: ['x', 'y'] }), limits(), null);
      expect(r.error?.code).toBe('E_CPU_TIMEOUT');
      expect(r.error?.at, 'the position slot names where it stopped').toBeGreaterThan(0);
      expect(host.usable, 'the isolate is kept').toBe(true);
      const ok = await host.render(stateful, request('stateful', { l: ['b', 'c'] }), limits(), null);
      expect(ok.error).toBeUndefined();
      expect(ok.output).toBe('1<b>2<c>|<c>');
    }
    // A template new to the context is defined there after a cut too (the runtime refuses a define during a render).
    const r = await host.render(template('endless', ENDLESS), request('endless', { l: ['x'] }), limits(), null);
    expect(r.error?.code).toBe('E_CPU_TIMEOUT');
    const fresh = await host.render(template('fresh', '{$x|upper}'), request('fresh', { x: 'new' }), limits(), null);
    expect(fresh.output).toBe('NEW');
    expect(host.disposed).toBe(false);
  });

  it('a template that can call the host still retires the isolate', async () => {
    const host = newHost();
    const r = await host.render(template('calls', ENDLESS, false), request('calls', { l: ['x'] }), limits(), null);
    expect(r.error?.code).toBe('E_CPU_TIMEOUT');
    expect(host.usable).toBe(false);
  });

  it('a wall-clock timeout still retires the isolate', async () => {
    const host = newHost();
    const r = await host.render(
      template('wall', ENDLESS),
      request('wall', { l: ['x'] }),
      limits({ cpuMs: 5000, wallMs: 150 }),
      null,
    );
    expect(r.error?.code).toBe('E_WALL_TIMEOUT');
    expect(host.usable).toBe(false);
  });
});

describe('through a sandbox worker', () => {
  it("after its first timeout, a tenant's endless template no longer holds the worker's thread", async () => {
    const engine = createEngine({ workers: 1, limits: { cpuMs: 1500, wallMs: 5000 } });
    try {
      const endless = '{section name=i loop=2000000000}{/section}';
      const a = { identity: { tenant: 'a' } };
      await expect(engine.render(endless, a)).rejects.toMatchObject({ code: 'E_CPU_TIMEOUT' });
      const order: string[] = [];
      const again = engine.render(endless, a).then(
        () => order.push('a ok'),
        (e: { code: string }) => order.push(`a ${e.code}`),
      );
      // Defined in the worker and host-free: before D249 a second render would have been the
      // synchronous one (D117), holding the worker's thread, and b's render behind it.
      await new Promise((r) => setTimeout(r, 100));
      const b = await engine.render('{$x|upper}', { vars: { x: 'b' }, identity: { tenant: 'b' } });
      order.push(`b ${b.output}`);
      await again;
      expect(order).toEqual(['b B', 'a E_CPU_TIMEOUT']);
      // And the tenant's isolate renders again, its state clean.
      expect((await engine.render('{$x}', { ...a, vars: { x: 'fine' } })).output).toBe('fine');
    } finally {
      engine.close();
    }
  });
});
