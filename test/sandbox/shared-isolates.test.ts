/**
 * Tenants of one isolate group sharing isolates, a context each (PoolOptions.tenantsPerIsolate,
 * docs/decisions.md D342): who shares with whom, that each tenant keeps its own templates and
 * state, and that a render breaching a limit ends the shared isolate without failing the renders
 * of the group queued behind it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TenantIsolates } from '../../src/sandbox/isolate-cache.js';
import { renderRequest } from '../../src/sandbox/request.js';
import { DEFAULT_LIMITS, type SandboxLimits } from '../../src/sandbox/limits.js';
import { compile } from '../../src/compiler/index.js';
import { createEngine, type Engine } from '../../src/index.js';

const caches: TenantIsolates[] = [];
const engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(caches.splice(0).map((c) => c.close()));
  await Promise.all(engines.splice(0).map((e) => e.close()));
});

const cache = (tenantsPerIsolate: number) => {
  const c = new TenantIsolates({ tenantsPerIsolate });
  caches.push(c);
  return c;
};

/** The same template id for every source: each tenant's context must hold its own definition. */
const template = (source: string, id = 'shared.tpl#1') => ({
  id,
  code: compile(source, { name: 'shared.tpl', id }).code,
  filename: 'shared.js',
});
const request = (x: string) =>
  renderRequest({
    templateName: 'shared.tpl',
    now: 1700000000,
    site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
    vars: { x },
    seed: Array.from({ length: 16 }, () => 7),
  });
const limits: SandboxLimits = { ...DEFAULT_LIMITS, cpuMs: 2_000, wallMs: 5_000 };

describe('tenants sharing an isolate', () => {
  it('tenants of one group share one isolate up to tenantsPerIsolate, and other groups do not', async () => {
    const c = cache(2);
    const t = template('{$x}');
    for (const [tenant, group] of [
      ['a', 'g1'],
      ['b', 'g1'],
      ['c', 'g1'],
      ['d', 'g2'],
    ] as const)
      expect((await c.render(tenant, 128, t, request(tenant), limits, null, null, group)).output).toBe(tenant);
    expect(c.held().sort()).toEqual(['group g1/0', 'group g1/1', 'group g2/0']);
    // Again, in another order: each tenant stays where it was put.
    for (const tenant of ['c', 'b', 'a'])
      expect((await c.render(tenant, 128, t, request(tenant), limits, null, null, 'g1')).output).toBe(tenant);
    expect(c.report().isolates).toBe(3);
  });

  it('without a group, or at tenantsPerIsolate 1, or above the default class, a tenant has its own isolate', async () => {
    const t = template('{$x}');
    const one = cache(1);
    await one.render('a', 128, t, request('a'), limits, null, null, 'g');
    await one.render('b', 128, t, request('b'), limits, null, null, 'g');
    expect(one.held()).toEqual(['a/128', 'b/128']);
    const four = cache(4);
    await four.render('a', 128, t, request('a'), limits, null);
    await four.render('b', 256, t, request('b'), limits, null, null, 'g');
    await four.render('c', 128, t, request('c'), limits, null, null, 'g');
    expect(four.held()).toEqual(['a/128', 'b/256', 'group g/0']);
  });

  it("a tenant the embedder moves to another group renders in that group's isolate from its next render", async () => {
    const c = cache(4);
    const t = template('{$x}');
    await c.render('a', 128, t, request('a'), limits, null, null, 'g1');
    await c.render('b', 128, t, request('b'), limits, null, null, 'g2');
    expect((await c.render('a', 128, t, request('moved'), limits, null, null, 'g2')).output).toBe('moved');
    expect(c.held()).toEqual(['group g1/0', 'group g2/0']);
    // Out of any group: an isolate of its own.
    await c.render('a', 128, t, request('alone'), limits, null);
    expect(c.held()).toEqual(['group g1/0', 'group g2/0', 'a/128']);
  });

  it('each tenant of a shared isolate renders its own code for the same template id', async () => {
    const c = cache(4);
    const a = template('A:{$x}');
    const b = template('B:{$x|upper}');
    for (let i = 0; i < 3; i++) {
      expect((await c.render('a', 128, a, request('x'), limits, null, null, 'g')).output).toBe('A:x');
      expect((await c.render('b', 128, b, request('y'), limits, null, null, 'g')).output).toBe('B:Y');
    }
    expect(c.report().isolates).toBe(1);
  });

  it("a tenant's runaway render ends the shared isolate; the group's renders queued behind it run on a new one", async () => {
    const c = cache(4);
    const t = template('{$x}');
    await c.render('a', 128, t, request('warm'), limits, null, null, 'g');
    const loop = template('{section name=i loop=1000000000}{/section}', 'loop.tpl#1');
    const tight = { ...limits, cpuMs: 200, wallMs: 2_000 };
    const runaway = c.render('a', 128, loop, request(''), tight, null, null, 'g');
    const queued = c.render('b', 128, t, request('b'), limits, null, null, 'g');
    expect((await runaway).error?.code).toBe('E_CPU_TIMEOUT');
    expect(await queued).toMatchObject({ output: 'b' });
    expect(c.held()).toEqual(['group g/0']);
    expect((await c.render('a', 128, t, request('a again'), limits, null, null, 'g')).output).toBe('a again');
  });

  it('a tenant idle for idleMs gives its place in the shared isolate to another', async () => {
    const c = new TenantIsolates({ tenantsPerIsolate: 2, idleMs: 1_000 });
    caches.push(c);
    const t = template('{$x}');
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    await c.render('a', 128, t, request('a'), limits, null, null, 'g');
    // 'b' keeps the isolate in use (never idle for 1 s) while 'a' renders nothing for over 1 s.
    await sleep(600);
    await c.render('b', 128, t, request('b'), limits, null, null, 'g');
    await sleep(550);
    await c.render('b', 128, t, request('b'), limits, null, null, 'g');
    c.sweep();
    await c.render('c', 128, t, request('c'), limits, null, null, 'g');
    expect(c.held()).toEqual(['group g/0']);
    // 'a' back: the isolate holds 'b' and 'c' now, so 'a' gets the group's next.
    expect((await c.render('a', 128, t, request('a'), limits, null, null, 'g')).output).toBe('a');
    expect(c.held()).toEqual(['group g/0', 'group g/1']);
  });
});

describe('createEngine({ isolateGroup, pool: { tenantsPerIsolate } })', () => {
  it.each([0, 1])('workers: %i: the group shares isolates; each tenant reads its own templates', async (workers) => {
    const engine = createEngine({
      workers,
      pool: { tenantsPerIsolate: 8 },
      isolateGroup: (id) => (id.tenant.startsWith('acme-') ? 'acme' : undefined),
      templates: (name, identity) => (name === 'who.tpl' ? `site {$smarty.const.N}:${identity.tenant}` : undefined),
      tenant: (id) => ({ constants: { N: id.tenant.length } }),
    });
    engines.push(engine);
    const tenants = ['acme-1', 'acme-2', 'acme-3', 'other'];
    for (const tenant of tenants) {
      const r = await engine.render('{include file="who.tpl"}', { identity: { tenant } });
      expect(r.output).toBe(`site ${tenant.length}:${tenant}`);
    }
    // Workers report their memory with each answer; in-process the count is read now.
    expect(engine.stats().isolates).toBe(2);
  });

  it('a group function that throws fails the render E_INTERNAL, and the next render is fine', async () => {
    let fail = true;
    const engine = createEngine({
      workers: 0,
      pool: { tenantsPerIsolate: 4 },
      isolateGroup: () => {
        if (fail) throw new Error('no owner for this site');
        return 'g';
      },
    });
    engines.push(engine);
    await expect(engine.render('{$x}', { vars: { x: 1 } })).rejects.toMatchObject({ code: 'E_INTERNAL' });
    fail = false;
    expect((await engine.render('{$x}', { vars: { x: 2 } })).output).toBe('2');
  });

  it('does not ask the group function when no isolate is shared (tenantsPerIsolate 1)', async () => {
    let asked = 0;
    const engine = createEngine({ workers: 0, isolateGroup: () => String(++asked) });
    engines.push(engine);
    expect((await engine.render('{$x}', { vars: { x: 1 } })).output).toBe('1');
    expect(asked).toBe(0);
  });

  it('refuses a tenantsPerIsolate that is not a whole number from 1 to 32', () => {
    for (const bad of [0, 33, 1.5, Number.NaN])
      expect(() => createEngine({ workers: 0, pool: { tenantsPerIsolate: bad } })).toThrow(
        /tenantsPerIsolate.*from 1 to 32/,
      );
  });
});
