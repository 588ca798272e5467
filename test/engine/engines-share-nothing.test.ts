/**
 * Two engines in one process share nothing (issue 33, finding 7; D159): with the same tenant
 * names (`default`, the default), a request global one engine's render stores is not seen by the
 * other's render of the same request id; the {api} and {api_internal} caches and the request
 * globals are each engine's own; and the warm spare isolate one engine's isolate cache prepared
 * is never handed to another's (the caches of `workers: 0` engines and of sandbox workers).
 * The {api} answer cached by one engine and not served to the other: test/host-bridge/plugins/api/api.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { hostStateOf } from '../../src/engine-internal.js';
import { TenantIsolates } from '../../src/sandbox/isolate-cache.js';
import { renderRequest } from '../../src/sandbox/request.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { compile } from '../../src/compiler/index.js';

const a = createEngine({ workers: 0 });
const b = createEngine({ workers: 0 });
afterAll(async () => {
  await a.close();
  await b.close();
});

describe('two engines in one process', () => {
  it('keep their own request globals: the same tenant and request id in the other engine sees nothing', async () => {
    const identity = { tenant: 'default', requestId: 'shared-request-1' };
    expect(
      (await a.render('{assign_globals key="who" value="engine A"}{assign_globals var=x key="who"}{$x}', { identity }))
        .output,
    ).toBe('engine A');
    expect((await a.render('{assign_globals var=x key="who"}[{$x}]', { identity })).output).toBe('[engine A]');
    expect((await b.render('{assign_globals var=x key="who"}[{$x}]', { identity })).output).toBe('[]');
    expect(hostStateOf(a).requestGlobals.usage('default')).toBeGreaterThan(0);
    expect(hostStateOf(b).requestGlobals.usage('default')).toBe(0);
    a.endRequest(identity);
    expect(hostStateOf(a).requestGlobals.usage('default')).toBe(0);
  });

  it('hold their own caches', () => {
    const [sa, sb] = [hostStateOf(a), hostStateOf(b)];
    expect(sa).not.toBe(sb);
    expect(sa.apiCache).not.toBe(sb.apiCache);
    expect(sa.internalCache).not.toBe(sb.internalCache);
    expect(sa.requestGlobals).not.toBe(sb.requestGlobals);
  });
});

describe('warm spare isolates', () => {
  const template = () => {
    const r = compile('{$x}', { name: 'spare.tpl', id: 'spare.tpl' });
    return { id: 'spare.tpl', code: r.code, filename: 'spare.js' };
  };
  const request = () =>
    renderRequest({
      templateName: 'spare.tpl',
      now: 1700000000,
      site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
      vars: { x: 'ok' },
      seed: Array.from({ length: 16 }, () => 7),
    });

  it('belong to the isolate cache that prepared them: the other cache, same tenant, builds its own', async () => {
    const ca = new TenantIsolates();
    const cb = new TenantIsolates();
    try {
      expect((await ca.render('default', 128, template(), request(), DEFAULT_LIMITS, null)).output).toBe('ok');
      await new Promise((r) => setImmediate(r));
      expect(ca.spares.has(128), 'A warms a spare after its first render').toBe(true);
      expect(cb.spares.has(128), "B has none of A's").toBe(false);
      expect((await cb.render('default', 128, template(), request(), DEFAULT_LIMITS, null)).output).toBe('ok');
      expect(ca.spares.has(128), "B's first tenant did not take A's spare").toBe(true);
    } finally {
      await ca.close();
      await cb.close();
    }
  });
});
