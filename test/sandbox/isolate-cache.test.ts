/**
 * When a process lets its tenants' isolates go (src/sandbox/isolate-cache.ts): after a render
 * that left a big heap, after an idle period, and beyond the heap budget, least recently used
 * first; never while a render runs in one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TenantIsolates } from '../../src/sandbox/isolate-cache.js';
import { renderRequest } from '../../src/sandbox/request.js';
import { DEFAULT_LIMITS, type SandboxLimits } from '../../src/sandbox/limits.js';
import { compile } from '../../src/compiler/index.js';

const caches: TenantIsolates[] = [];
afterEach(async () => {
  await Promise.all(caches.splice(0).map((c) => c.close()));
});

const cache = (opts: ConstructorParameters<typeof TenantIsolates>[0]) => {
  const c = new TenantIsolates(opts);
  caches.push(c);
  return c;
};

const template = (source: string) => {
  const id = `cache-${source.length}-${source.slice(0, 40)}`;
  return { id, code: compile(source, { name: 'cache.tpl', id }).code, filename: 'cache.js' };
};
const request = () =>
  renderRequest({
    templateName: 'cache.tpl',
    now: 1700000000,
    site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
    vars: { x: 'ok' },
    seed: Array.from({ length: 16 }, () => 7),
  });
const limits: SandboxLimits = { ...DEFAULT_LIMITS, cpuMs: 20_000, wallMs: 30_000 };

/** Keeps `mb` MB of 2,000-character strings when it ends (the heap holds them until the next GC). */
const grows = (mb: number) =>
  template(
    `{section name=i loop=${mb * 500}}{append var=a value=$smarty.section.i.index|str_pad:2000:"x"}{/section}{$a|@count}`,
  );
const small = template('{$x}');

describe('tenant isolates', () => {
  it('a tenant rendering again and again keeps its isolate', async () => {
    const c = cache({ idleMs: 60_000, retainMB: 64, heapBudgetMB: 512 });
    for (let i = 0; i < 20; i++) expect((await c.render('t1', 128, small, request(), limits, null)).output).toBe('ok');
    expect(c.held()).toEqual(['t1/128']);
    expect(c.report().evicted).toBe(0);
  });

  it('an isolate left with a heap above retainMB is disposed after its render', async () => {
    const c = cache({ idleMs: 60_000, retainMB: 16, heapBudgetMB: 512 });
    // The 40 MB are garbage once the render ends; now and then V8 collects them before the heap
    // is read, and then the isolate rightly stays: another tenant tries then.
    let tenant = '';
    for (let i = 0; i < 5 && c.report().evicted === 0; i++) {
      tenant = `big${i}`;
      expect((await c.render(tenant, 128, grows(40), request(), limits, null)).output).toBe('20000');
    }
    expect(c.report().evicted).toBe(1);
    expect(c.held()).not.toContain(`${tenant}/128`);
    // Its tenant renders again, in another isolate.
    expect((await c.render(tenant, 128, small, request(), limits, null)).output).toBe('ok');
    expect(c.held()).toContain(`${tenant}/128`);
  });

  it('an isolate unused for idleMs is disposed; one in use stays', async () => {
    const c = cache({ idleMs: 300, retainMB: 64, heapBudgetMB: 512 });
    await c.render('idle', 128, small, request(), limits, null);
    await c.render('busy', 128, small, request(), limits, null);
    const until = Date.now() + 1200;
    while (Date.now() < until) {
      await c.render('busy', 128, small, request(), limits, null);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(c.held()).toEqual(['busy/128']);
    expect(c.report().evicted).toBe(1);
  });

  it('beyond maxIsolates the least recently used idle isolates go first', async () => {
    const c = cache({ idleMs: 60_000, retainMB: 64, heapBudgetMB: 512, maxIsolates: 3 });
    for (const t of ['a', 'b', 'c']) await c.render(t, 128, small, request(), limits, null);
    await c.render('a', 128, small, request(), limits, null);
    await c.render('d', 128, small, request(), limits, null);
    expect(c.held()).toEqual(['c/128', 'a/128', 'd/128']);
    expect(c.report().evicted).toBe(1);
  });

  it('beyond the heap budget the least recently used idle isolates go first', async () => {
    // 120 MB: room for a and b even when a retry of `fill` left a's first 40 MB uncollected.
    const c = cache({ idleMs: 60_000, retainMB: 4096, heapBudgetMB: 120 });
    // Renders `mb` MB until the heap holds them when it is read, or an isolate was disposed
    // (now and then V8 collects the garbage before the read; the tenant stays the most recent).
    const fill = async (tenant: string, mb: number) => {
      for (let i = 0; i < 5; i++) {
        const before = c.report();
        await c.render(tenant, 128, grows(mb), request(), limits, null);
        const after = c.report();
        if (after.heapMB - before.heapMB > 0.7 * mb || after.evicted > before.evicted) return;
      }
    };
    await fill('a', 40);
    await fill('b', 40);
    // a is used again: b is now the least recently used. (a's heap may or may not have been
    // collected by that render: 5 to 40 MB.)
    await c.render('a', 128, small, request(), limits, null);
    expect(c.held()).toEqual(['b/128', 'a/128']);
    expect(c.report().evicted).toBe(0);
    // 80 more MB: over the budget whatever a holds. b goes first; a too if that was not enough.
    await fill('c', 80);
    expect(c.held()).not.toContain('b/128');
    expect(c.held().at(-1)).toBe('c/128');
    expect(c.report().evicted).toBe(3 - c.held().length);
    expect(c.report().heapMB).toBeLessThanOrEqual(120);
  });

  it('a render in progress is never cut short by the idle timer or the budget', async () => {
    const c = cache({ idleMs: 50, retainMB: 4096, heapBudgetMB: 0 });
    const long = c.render(
      'long',
      128,
      template('{section name=i loop=1500000}{assign var=x value=$smarty.section.i.index}{/section}done'),
      request(),
      limits,
      null,
    );
    // Other renders ending meanwhile enforce the budget of 0 MB on every idle isolate.
    for (let i = 0; i < 10; i++)
      expect((await c.render(`other${i}`, 128, small, request(), limits, null)).output).toBe('ok');
    const r = await long;
    expect(r.error).toBeUndefined();
    expect(r.output).toBe('done');
  });

  it('big-class isolates and spares go when the pool asks for their memory', async () => {
    const c = cache({ idleMs: 60_000, retainMB: 4096, heapBudgetMB: 2048 });
    // (Rendered again if V8 collected the 30 MB before the heap was read.)
    for (let i = 0; i < 5 && c.report().bigIdleMB <= 20; i++)
      await c.render('t', 512, grows(30), request(), limits, null);
    await c.render('t', 128, small, request(), limits, null);
    expect(c.report().bigIdleMB).toBeGreaterThan(20);
    expect(c.evictBig()).toBeGreaterThanOrEqual(1);
    expect(c.held()).toEqual(['t/128']);
    expect(c.report().bigIdleMB).toBe(0);
  });
});
