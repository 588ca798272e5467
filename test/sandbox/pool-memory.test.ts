/**
 * Memory held by sandbox workers (docs/security.md HH-05): a heap grown by big renders goes back once
 * the tenants are idle, and a big render is admitted against what the workers hold, not only
 * against the renders in flight.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { SandboxPool } from '../../src/sandbox/pool.js';
import { renderRequest } from '../../src/sandbox/request.js';
import { DEFAULT_LIMITS, type SandboxLimits } from '../../src/sandbox/limits.js';
import { compile } from '../../src/compiler/index.js';
import { rssMB } from '../../src/security/cases/host/pool.js';

const sumRss = (pids: number[]) => pids.reduce((n, p) => n + rssMB(p), 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Keeps `mb` MB of 2,000-character strings when it ends, in the 512 MB class. */
const big = (mb: number) =>
  `{set_memory memory_limit="512M"}{section name=i loop=${mb * 500}}{append var=a value=$smarty.section.i.index|str_pad:2000:"x"}{/section}{$a|@count}`;
const limits: Partial<SandboxLimits> = { cpuMs: 20_000, wallMs: 30_000 };

describe('worker memory', () => {
  it(
    'five tenants after one big render each: once idle, the workers are back near their baseline',
    { timeout: 90_000 },
    async () => {
      // retainMB off: the idle rule alone has to give the memory back.
      const engine = createEngine({ workers: 2, limits, pool: { isolateIdleMs: 1000, isolateRetainMB: 100_000 } });
      try {
        const tenants = ['m1', 'm2', 'm3', 'm4', 'm5'];
        await Promise.all(tenants.map((t) => engine.render('{$x}', { vars: { x: t }, identity: { tenant: t } })));
        await sleep(300);
        const pids = engine.pids();
        const baseline = sumRss(pids);
        // The peak, read after each render: with a 1 s idle period the first tenants' isolates may
        // already be gone by the time the last render ends.
        let grown = baseline;
        for (const t of tenants) {
          expect((await engine.render(big(100), { identity: { tenant: t } })).output).toBe('50000');
          grown = Math.max(grown, sumRss(pids));
        }
        expect(grown - baseline, 'the renders grew the workers').toBeGreaterThan(200);
        // The idle period, then V8 hands pooled pages back 8 s after an isolate is disposed.
        let now = grown;
        const until = Date.now() + 30_000;
        while (Date.now() < until && now > baseline + 80) {
          await sleep(250);
          now = sumRss(pids);
        }
        expect(
          now,
          `RSS of the workers: ${baseline.toFixed(0)} MB before, ${grown.toFixed(0)} MB after the renders, ${now.toFixed(0)} MB once idle`,
        ).toBeLessThanOrEqual(baseline + 80);
        // The tenants render again, in new isolates.
        expect((await engine.render('{$x}', { vars: { x: 'back' }, identity: { tenant: 'm1' } })).output).toBe('back');
      } finally {
        await engine.close();
      }
    },
  );

  it(
    'a big render is admitted against the idle big isolates a worker holds, which are disposed for it',
    { timeout: 60_000 },
    async () => {
      const pool = new SandboxPool({
        workers: 1,
        bigMemoryBudgetMB: 700,
        isolateRetainMB: 100_000,
        isolateIdleMs: 60_000,
      });
      const host = async () => '{}';
      const run = (tenant: string, source: string) => {
        const id = `adm-${tenant}-${source.length}`;
        const c = compile(source, { name: 'adm.tpl', id });
        const request = renderRequest({
          templateName: 'adm.tpl',
          now: 1700000000,
          site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
          vars: {},
          seed: Array.from({ length: 16 }, () => 1),
        });
        return pool.render(
          tenant,
          c.manifest.memoryMB,
          { id, code: c.code, filename: 'adm.js' },
          request,
          { ...DEFAULT_LIMITS, ...limits },
          host,
        );
      };
      try {
        // Now and then V8 collects the 200 MB before the worker reads the heap: another tenant tries then.
        for (let i = 0; i < 5 && pool.memory()[0]!.bigIdleMB <= 700 - 512; i++)
          expect((await run(`a${i}`, big(200))).output).toBe('100000');
        const held = pool.memory()[0]!;
        // The idle isolates hold their heap: 512 more would exceed the budget of 700.
        expect(held.bigIdleMB).toBeGreaterThan(700 - 512);
        expect((await run('b', big(50))).output).toBe('25000');
        const after = pool.memory()[0]!;
        expect(after.evicted - held.evicted, 'the idle isolates were disposed to admit b').toBeGreaterThanOrEqual(1);
        expect(after.isolates).toBe(1);
      } finally {
        await pool.close();
      }
    },
  );
});

describe('worker recycling', () => {
  const page =
    '{section name=i loop=2000}{assign var="a.`$smarty.section.i.index`" value=$smarty.section.i.index|str_pad:200:"y"}{/section}{$a|@count}';
  const warm = async (engine: ReturnType<typeof createEngine>, tenants: string[]) => {
    for (const t of tenants)
      for (let i = 0; i < 3; i++) expect((await engine.render(page, { identity: { tenant: t } })).output).toBe('2000');
  };

  it(
    'a worker left holding memory by tenants that all went idle is replaced by a fresh one; tenants render on',
    { timeout: 60_000 },
    async () => {
      const engine = createEngine({
        workers: 1,
        pool: { isolateIdleMs: 500, recycleIdleAboveMB: 16, recycleEveryMs: 0 },
      });
      try {
        const tenants = Array.from({ length: 24 }, (_, i) => `r${i}`);
        await warm(engine, tenants.slice(0, 1));
        const [before] = engine.pids();
        await warm(engine, tenants);
        const grown = rssMB(before!);
        // The idle timer (every 125 ms) disposes the isolates; the report that follows replaces the worker.
        const until = Date.now() + 10_000;
        while (Date.now() < until && engine.pids()[0] === before) await sleep(100);
        const [after] = engine.pids();
        expect(after, 'a new worker process').not.toBe(before);
        await warm(engine, tenants.slice(0, 2));
        expect(
          rssMB(after!),
          `RSS: ${grown.toFixed(0)} MB in the old worker, the new one after two tenants`,
        ).toBeLessThan(grown - 16);
      } finally {
        await engine.close();
      }
    },
  );

  it(
    'a worker that still holds a tenant isolate, or was replaced within recycleEveryMs, is kept',
    { timeout: 60_000 },
    async () => {
      // One tenant stays warm (the idle period is long): the worker is kept however much it holds.
      const held = createEngine({
        workers: 1,
        pool: { isolateIdleMs: 60_000, recycleIdleAboveMB: 0, recycleEveryMs: 0 },
      });
      // Every tenant goes idle, but the worker is younger than recycleEveryMs.
      const young = createEngine({
        workers: 1,
        pool: { isolateIdleMs: 500, recycleIdleAboveMB: 0, recycleEveryMs: 600_000 },
      });
      try {
        for (const engine of [held, young]) {
          const [pid] = engine.pids();
          await warm(engine, ['k1', 'k2', 'k3']);
          await sleep(2000);
          expect(engine.pids()).toEqual([pid]);
        }
      } finally {
        await held.close();
        await young.close();
      }
    },
  );
});

describe('idle collection', () => {
  it(
    'an isolate idle for isolateReduceAfterMs gets a memory-reducing collection, once; the tenant renders on',
    { timeout: 60_000 },
    async () => {
      const pool = new SandboxPool({ workers: 1, isolateReduceAfterMs: 400, isolateIdleMs: 60_000 });
      // ~6 MB of strings built and dropped by each render: the heap stays committed past them until collected.
      const source =
        '{section name=i loop=20000}{assign var="a.`$smarty.section.i.index`" value=$smarty.section.i.index|str_pad:300:"z"}{/section}{$a|@count}';
      const c = compile(source, { name: 'idle.tpl', id: 'idle-gc' });
      const template = { id: 'idle-gc', code: c.code, filename: 'idle.js', hostFree: c.manifest.host.length === 0 };
      const request = renderRequest({
        templateName: 'idle.tpl',
        now: 1700000000,
        site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
        vars: {},
        seed: Array.from({ length: 16 }, () => 1),
      });
      const render = async () =>
        (await pool.render('idle', 128, template, request, { ...DEFAULT_LIMITS, ...limits }, async () => '{}')).output;
      try {
        for (let i = 0; i < 10; i++) expect(await render()).toBe('20000');
        const busy = pool.memory()[0]!.heapMB;
        // The sweep runs every 200 ms; the collection's report follows it.
        const until = Date.now() + 5000;
        while (Date.now() < until && pool.memory()[0]!.heapMB > busy - 2) await sleep(100);
        const idle = pool.memory()[0]!.heapMB;
        expect(
          idle,
          `heap of the worker's isolates: ${busy} MB after the renders, ${idle} MB once idle`,
        ).toBeLessThanOrEqual(busy - 2);
        // Once per idle period: the heap stays where the collection left it.
        await sleep(1000);
        expect(pool.memory()[0]!.heapMB).toBeLessThanOrEqual(idle + 0.5);
        expect(await render()).toBe('20000');
      } finally {
        await pool.close();
      }
    },
  );
});
