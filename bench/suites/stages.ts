/**
 * One-shot stages, each in a fresh process (`stages:compile`, `stages:first`...). Each returns
 * its figures (µs unless named otherwise) and what exactly was timed.
 */
import ivm from 'isolated-vm';
import { readFileSync } from 'node:fs';
import { generate } from '../data/generate.js';
import { makeHandWritten } from '../engines/hand-written.js';
import type { Engine } from '../../src/index.js';
import { loadSmartcage } from '../lib/smartcage.js';
import { BenchIsolate, PAGE_TPL, RUNTIME_BUNDLE, renderRequest } from '../lib/harness.js';
import { cpuUs, gc, median, now, rssBytes, sample, timeOnce, type Subject } from '../lib/measure.js';
import type { Suite, SuiteOptions } from '../lib/child.js';

const { compile, createEngine } = await loadSmartcage();

type Figures = Record<string, number | string>;
const vars = () => generate() as unknown as Record<string, unknown>;
/** A template no cache has seen: the page with a unique comment appended. */
let uniq = 0;
const fresh = () => `${PAGE_TPL}{* ${process.pid}-${++uniq} *}`;
const med = (xs: number[]) => Math.round(median(xs) * 10) / 10;

async function stageCompile(quick: boolean): Promise<Figures> {
  const first = await timeOnce(() => compile(fresh(), { name: 'page.tpl' }));
  for (let i = 0; i < (quick ? 100 : 300); i++) compile(fresh(), { name: 'page.tpl' });
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < (quick ? 200 : 1000); i++) {
    const src = fresh();
    const t = await timeOnce(() => compile(src, { name: 'page.tpl' }));
    cpu.push(t.cpuUs);
    wall.push(t.wallUs);
  }
  // process.cpuUsage has µs resolution but each read costs ~1 µs: also a batch figure.
  const n = quick ? 200 : 1000;
  const srcs = Array.from({ length: n }, fresh);
  gc();
  const c0 = cpuUs();
  const t0 = now();
  for (const s of srcs) compile(s, { name: 'page.tpl' });
  const batchCpu = (cpuUs() - c0) / n;
  const batchWall = ((now() - t0) * 1000) / n;
  const code = compile(PAGE_TPL, { name: 'page.tpl' }).code;
  return {
    firstCompileColdUs: Math.round(first.wallUs),
    compileCpuUsMedian: med(cpu),
    compileWallUsMedian: med(wall),
    compileCpuUsBatch: Math.round(batchCpu * 10) / 10,
    compileWallUsBatch: Math.round(batchWall * 10) / 10,
    generatedBytes: code.length,
    handWrittenBytes: String(makeHandWritten).length,
    templateBytes: PAGE_TPL.length,
  };
}

/**
 * First output of a new template in a warm tenant: engine.render of a never-seen source, right
 * after the tenant rendered a template it knows (a tenant in use). Also measured right after a
 * forced full GC of the host, as earlier runs did: that GC's concurrent sweeping then competes
 * for the two cores, and the host's caches are cold (~1.5x slower; see bench/README.md).
 */
async function stageFirst(quick: boolean): Promise<Figures> {
  const data = vars();
  const out: Figures = {};
  for (const workers of [0, 1]) {
    const e = createEngine({ workers, timezone: 'UTC' });
    const tenant = { tenant: 'warm' };
    const render = (src: string) => e.render(src, { name: 'page.tpl', vars: data, identity: tenant });
    for (let i = 0; i < 30; i++) await render(i % 2 ? PAGE_TPL : fresh());
    for (const after of ['Render', 'Gc'] as const) {
      const wall: number[] = [];
      const cpu: number[] = [];
      const warmWall: number[] = [];
      for (let i = 0; i < (quick ? 15 : 60); i++) {
        if (after === 'Gc') gc();
        else await render(PAGE_TPL);
        const src = fresh();
        const t = await timeOnce(() => render(src), e.pids());
        wall.push(t.wallUs);
        cpu.push(t.cpuUs);
        warmWall.push((await timeOnce(() => render(src))).wallUs);
      }
      const tag = after === 'Render' ? '' : 'AfterGc';
      out[`w${workers}.firstOutput${tag}WallUs`] = med(wall);
      out[`w${workers}.firstOutput${tag}CpuUs`] = med(cpu);
      out[`w${workers}.secondRender${tag}WallUs`] = med(warmWall);
    }
    await e.close();
  }
  // The parts, in a bench isolate: compile(), script compile + define, first render (vars copied in).
  const b = new BenchIsolate();
  b.define(PAGE_TPL, 'warm');
  for (let i = 0; i < 5; i++)
    b.render.applySync(undefined, ['warm', new ivm.ExternalCopy(renderRequest(data)).copyInto({ release: true })], {
      result: { copy: true },
    });
  const parts = { compile: [] as number[], define: [] as number[], render1: [] as number[], render2: [] as number[] };
  for (let i = 0; i < (quick ? 15 : 60); i++) {
    const id = `t${i}`;
    const src = fresh();
    let code = '';
    parts.compile.push((await timeOnce(() => (code = compile(src, { name: id, id }).code))).wallUs);
    parts.define.push(
      (await timeOnce(() => b.isolate.compileScriptSync(code, { filename: `${id}.js` }).runSync(b.context))).wallUs,
    );
    const call = () =>
      b.render.applySync(undefined, [id, new ivm.ExternalCopy(renderRequest(data)).copyInto({ release: true })], {
        timeout: 1000,
        result: { copy: true },
      });
    parts.render1.push((await timeOnce(call)).wallUs);
    parts.render2.push((await timeOnce(call)).wallUs);
  }
  b.dispose();
  out['parts.compileWallUs'] = med(parts.compile);
  out['parts.scriptCompileAndDefineWallUs'] = med(parts.define);
  out['parts.firstRenderWallUs'] = med(parts.render1);
  out['parts.secondRenderWallUs'] = med(parts.render2);
  return out;
}

/**
 * Tenants of one owner sharing isolates (D342, an operator's opt-in): every tenant in one group,
 * 32 to an isolate, so the memory stage's 30 tenants and its base tenant fill about one.
 */
const SHARED_OPTIONS = { pool: { tenantsPerIsolate: 32 }, isolateGroup: () => 'one owner' };

/** The engines the cold and memory stages measure: figure prefix, workers, tenants sharing isolates. */
const ENGINES = [
  ['w0', 0, false],
  ['w1', 1, false],
  ['w0shared', 0, true],
] as const;

/**
 * Cold tenant: the first render of a tenant that has no isolate yet (template already compiled).
 * Two arrival patterns: 250 ms apart, so the process has a warm spare ready for each (the usual
 * case: src/sandbox/warmup.ts), also right after a forced full GC of the host as runs before
 * 2026-11-25 measured it; and back to back, where no spare can keep up.
 */
async function stageCold(quick: boolean): Promise<Figures> {
  const data = vars();
  const out: Figures = {};
  // `w0shared`: every tenant of one isolate group, sharing isolates 32 at a time (D342): a new
  // tenant takes the warm context its isolate made ready, as a tenant of its own takes a spare.
  for (const [key, workers, shared] of ENGINES) {
    const e = createEngine({ workers, timezone: 'UTC', ...(shared ? SHARED_OPTIONS : {}) });
    for (let i = 0; i < 3; i++)
      await e.render(PAGE_TPL, { name: 'page.tpl', vars: data, identity: { tenant: `warmup${i}` } });
    // As for first output: a forced full GC of the host just before the render is shown
    // beside the target figure, not in it (its concurrent sweeping competes for the two cores).
    const rounds = [
      ['', 250, false],
      ['AfterGc', 250, true],
      ['BackToBack', 0, false],
    ] as const;
    for (const [label, pauseMs, forceGc] of shared ? rounds.slice(0, 1) : rounds) {
      const wall: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < (quick ? 5 : 15); i++) {
        if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
        if (forceGc) gc();
        const t = await timeOnce(
          () => e.render(PAGE_TPL, { name: 'page.tpl', vars: data, identity: { tenant: `cold${label}${i}` } }),
          e.pids(),
        );
        wall.push(t.wallUs);
        cpu.push(t.cpuUs);
      }
      out[`${key}.coldTenant${label}WallUs`] = med(wall);
      out[`${key}.coldTenant${label}CpuUs`] = med(cpu);
    }
    await e.close();
  }
  // The parts, as IsolateHost does them.
  const bundle = readFileSync(RUNTIME_BUNDLE, 'utf8');
  const code = compile(PAGE_TPL, { name: 'page.tpl', id: 'page.tpl' }).code;
  const parts: Record<string, number[]> = {
    newIsolate: [],
    compileRuntime: [],
    createContext: [],
    runRuntime: [],
    bootstrap: [],
    defineTemplate: [],
    firstRender: [],
    dispose: [],
  };
  const isolates: ivm.Isolate[] = [];
  for (let i = 0; i < (quick ? 5 : 15); i++) {
    gc();
    const t = (k: string, f: () => unknown) => {
      const t0 = now();
      const v = f();
      parts[k].push((now() - t0) * 1000);
      return v;
    };
    const iso = t('newIsolate', () => new ivm.Isolate({ memoryLimit: 128 })) as ivm.Isolate;
    const rtScript = t('compileRuntime', () =>
      iso.compileScriptSync(bundle, { filename: 'smartcage-runtime.js' }),
    ) as ivm.Script;
    const ctx = t('createContext', () => iso.createContextSync()) as ivm.Context;
    t('runRuntime', () => rtScript.runSync(ctx));
    t('bootstrap', () => ctx.evalSync('smartcage.bootstrap();'));
    t('defineTemplate', () => iso.compileScriptSync(code, { filename: 'page.js' }).runSync(ctx));
    const render = (
      ctx.global.getSync('smartcage', { reference: true }) as ivm.Reference<Record<string, unknown>>
    ).getSync('render', { reference: true }) as ivm.Reference<(...a: unknown[]) => unknown>;
    t('firstRender', () =>
      render.applySync(undefined, ['page.tpl', new ivm.ExternalCopy(renderRequest(data)).copyInto({ release: true })], {
        timeout: 1000,
        result: { copy: true },
      }),
    );
    isolates.push(iso);
  }
  for (const iso of isolates) {
    const t0 = now();
    iso.dispose();
    parts.dispose.push((now() - t0) * 1000);
  }
  for (const [k, v] of Object.entries(parts)) out[`parts.${k}WallUs`] = med(v);
  out.runtimeBundleBytes = bundle.length;
  return out;
}

/** Host-bridge round trip: {assign_globals} calls in a render, against the same render without them. */
async function stageBridge(quick: boolean): Promise<Figures> {
  const K = 20;
  const withCalls = Array.from({ length: K }, (_, i) => `{assign_globals key="k${i % 4}" value="v"}`).join('') + 'done';
  const without = Array.from({ length: K }, (_, i) => `{assign var="k${i % 4}" value="v"}`).join('') + 'done';
  const out: Figures = { callsPerRender: K };
  for (const workers of [0, 1]) {
    const e: Engine = createEngine({ workers, timezone: 'UTC' });
    const identity = { tenant: 'bridge', requestId: 'fake-request-1' };
    const mk = (src: string): Subject => ({
      output: async () => (await e.render(src, { name: 'b.tpl', identity })).output,
      async run(n) {
        for (let i = 0; i < n; i++) await e.render(src, { name: 'b.tpl', identity });
      },
      pids: () => e.pids(),
    });
    const a = mk(withCalls);
    const b = mk(without);
    if ((await a.output()) !== 'done' || (await b.output()) !== 'done')
      throw new Error('bridge templates: unexpected output');
    await sample(a, 5, 200);
    await sample(b, 5, 200);
    const wall: number[] = [];
    const cpu: number[] = [];
    const base: number[] = [];
    for (let r = 0; r < (quick ? 3 : 7); r++) {
      const sa = await sample(a, 5, quick ? 150 : 300);
      const sb = await sample(b, 5, quick ? 150 : 300);
      wall.push((sa.wallUs / sa.ops - sb.wallUs / sb.ops) / K);
      cpu.push((sa.cpuUs / sa.ops - sb.cpuUs / sb.ops) / K);
      base.push(sb.wallUs / sb.ops);
    }
    out[`w${workers}.roundTripWallUs`] = med(wall);
    out[`w${workers}.roundTripCpuUs`] = med(cpu);
    out[`w${workers}.renderWithoutCallsWallUs`] = med(base);
    await e.close();
  }
  return out;
}

/** Copy-in of the page's variables: the empty template rendered with and without them. */
async function stageCopyIn(quick: boolean): Promise<Figures> {
  const data = generate();
  const json = JSON.stringify(data);
  const b = new BenchIsolate();
  b.define('', 'empty');
  const call = (v: unknown) => () => {
    const r = b.render.applySync(
      undefined,
      ['empty', new ivm.ExternalCopy(renderRequest(v, 'empty')).copyInto({ release: true })],
      { timeout: 1000, result: { copy: true } },
    ) as { error?: unknown };
    if (r.error) throw new Error(JSON.stringify(r.error));
  };
  const subj = (f: () => void): Subject => ({
    output: () => '',
    run: (n) => {
      for (let i = 0; i < n; i++) f();
    },
  });
  const subjects: Record<string, Subject> = {
    none: subj(call(null)),
    plain: subj(call(data)),
    json: subj(() => call(JSON.stringify(data))()),
    jsonCached: subj(call(json)),
    externalCopyOnly: subj(() => void new ivm.ExternalCopy(renderRequest(data)).release()),
  };
  const res: Record<string, number[]> = {};
  for (const s of Object.values(subjects)) await sample(s, 20, 150);
  for (let r = 0; r < (quick ? 3 : 7); r++) {
    for (const [k, s] of Object.entries(subjects)) {
      const x = await sample(s, 20, quick ? 100 : 250);
      (res[k] ??= []).push(x.cpuUs / x.ops);
    }
  }
  b.dispose();
  const m = (k: string) => median(res[k]);
  return {
    emptyRenderNoVarsCpuUs: med(res.none),
    copyInPlainCpuUs: Math.round(m('plain') - m('none')),
    copyInJsonCpuUs: Math.round(m('json') - m('none')),
    copyInCachedJsonCpuUs: Math.round(m('jsonCached') - m('none')),
    hostExternalCopyOnlyCpuUs: med(res.externalCopyOnly),
    varsJsonBytes: json.length,
  };
}

/** RSS per warm tenant: K tenants each render the page 20 times; RSS growth / K. */
async function stageMemory(quick: boolean): Promise<Figures> {
  const data = vars();
  const K = quick ? 10 : 30;
  const out: Figures = { tenants: K };
  // RSS once the isolates' pending work has run and the host has collected its garbage.
  const settledRss = async (pid: number) => {
    await new Promise((r) => setTimeout(r, 200));
    gc();
    return rssBytes(pid);
  };
  // Isolates unused this long go (the worker engine): long enough for every tenant to stay while
  // the K tenants warm up and idle, short enough to measure what is left after they went. The
  // worker, then holding no isolate, is replaced by a fresh one (`recycleIdleAboveMB`); its default
  // guard of 60 s between replacements is lifted as the idle period is shortened.
  const idleMs = 15_000;
  // The idle collection (`isolateReduceAfterMs`, 30 s by default) shortened the same way, and
  // longer than the K tenants take to warm up (~2-3 s): none has had it when the warm figure is read.
  const reduceMs = 5000;
  for (const [key, workers, shared] of ENGINES) {
    const e = createEngine({
      workers,
      timezone: 'UTC',
      pool: workers ? { isolateIdleMs: idleMs, isolateReduceAfterMs: reduceMs, recycleEveryMs: 0 } : {},
      ...(shared ? SHARED_OPTIONS : {}),
    });
    const pid = () => (workers ? e.pids()[0] : process.pid);
    const warm = async (tenant: string) => {
      for (let i = 0; i < 20; i++) await e.render(PAGE_TPL, { name: 'page.tpl', vars: data, identity: { tenant } });
    };
    await warm('base');
    const rss0 = await settledRss(pid());
    for (let t = 0; t < K; t++) await warm(`tenant${t}`);
    const rss1 = await settledRss(pid());
    out[`${key}.rssPerTenantKB`] = Math.round((rss1 - rss0) / K / 1024);
    if (workers) {
      // Warm but idle: each isolate has had its memory-reducing collection (the sweep runs every
      // reduceMs / 2), none has been disposed yet (the first tenant has been idle ~11 s by then).
      await new Promise((r) => setTimeout(r, reduceMs * 1.5 + 1000));
      out[`w${workers}.rssPerTenantIdleKB`] = Math.round(((await settledRss(pid())) - rss0) / K / 1024);
      // Idle tenants after eviction: disposed after `idleMs` (checked every idleMs / 4), and V8
      // gives a disposed isolate's pages back to the system 8 s later (docs/sandbox.md); the
      // worker is replaced once it holds none, so this reads the fresh worker (`pid()` again).
      await new Promise((r) => setTimeout(r, idleMs * 1.25 + 8000 + 1000));
      out[`w${workers}.rssPerTenantAfterEvictionKB`] = Math.round(((await settledRss(pid())) - rss0) / K / 1024);
    }
    await e.close();
  }
  // The floor: the hand-written function in a bare isolate, the same vars copied in and output
  // copied out through the async `apply`, 20 renders. Most of it is V8's own: a new space of two
  // 1 MB semispaces (V8's least on x64 without pointer compression) once renders have churned it.
  const isolates: ivm.Isolate[] = [];
  const floorIsolate = async () => {
    const iso = new ivm.Isolate({ memoryLimit: 128 });
    const ctx = await iso.createContext();
    await ctx.eval(`const __name = (f) => f; globalThis.render = (${String(makeHandWritten)})();`);
    const render = (await ctx.global.get('render', { reference: true })) as ivm.Reference<(d: unknown) => string>;
    for (let i = 0; i < 20; i++)
      await render.apply(undefined, [new ivm.ExternalCopy(data).copyInto({ release: true })], {
        timeout: 1000,
        result: { copy: true },
      });
    isolates.push(iso);
  };
  await floorIsolate();
  const floor0 = await settledRss(process.pid);
  for (let t = 0; t < K; t++) await floorIsolate();
  out['floor.rssPerIsolateKB'] = Math.round(((await settledRss(process.pid)) - floor0) / K / 1024);
  for (const iso of isolates) iso.dispose();
  // V8 heap of one tenant isolate: bare, with the runtime bootstrapped, after 20 renders of the page.
  const bare = new ivm.Isolate({ memoryLimit: 128 });
  bare.createContextSync();
  const heap = (iso: ivm.Isolate, k: string) => {
    const h = iso.getHeapStatisticsSync();
    out[`heap.${k}.totalKB`] = Math.round(h.total_heap_size / 1024);
    out[`heap.${k}.usedKB`] = Math.round(h.used_heap_size / 1024);
    out[`heap.${k}.externalKB`] = Math.round(h.externally_allocated_size / 1024);
  };
  heap(bare, 'bareIsolateContext');
  bare.dispose();
  const b = new BenchIsolate();
  heap(b.isolate, 'runtimeBootstrapped');
  b.define(PAGE_TPL, 'page.tpl');
  for (let i = 0; i < 20; i++)
    b.render.applySync(undefined, ['page.tpl', new ivm.ExternalCopy(renderRequest(data)).copyInto({ release: true })], {
      result: { copy: true },
    });
  heap(b.isolate, 'after20Renders');
  b.dispose();
  return out;
}

/** Throughput on both cores: engine with 2 workers, several tenants, renders in flight. */
async function stageThroughput(quick: boolean): Promise<Figures> {
  const data = vars();
  const tenants = 4;
  const inflight = 8;
  const out: Figures = { tenants, inflight };
  // Workers 2 is the default (crash isolation); workers 0 is the anchors' in-process pool of
  // isolates, each render's async `apply` running on isolated-vm's threads (section 5's 0.43x floor).
  for (const workers of [2, 1, 0]) {
    const e = createEngine({ workers, timezone: 'UTC' });
    const one = (i: number) =>
      e.render(PAGE_TPL, { name: 'page.tpl', vars: data, identity: { tenant: `tp${i % tenants}` } });
    const run = async (ms: number) => {
      let done = 0;
      const t0 = now();
      const c0 = cpuUs(e.pids());
      const lane = async (l: number) => {
        while (now() - t0 < ms) {
          await one(l);
          done++;
        }
      };
      await Promise.all(Array.from({ length: inflight }, (_, l) => lane(l)));
      const wallUs = (now() - t0) * 1000;
      return { done, wallUs, cpuUs: cpuUs(e.pids()) - c0 };
    };
    await run(quick ? 500 : 1500);
    const r = await run(quick ? 1500 : 5000);
    out[`w${workers}.rendersPerSec`] = Math.round(r.done / (r.wallUs / 1e6));
    out[`w${workers}.cpuUsPerRender`] = Math.round(r.cpuUs / r.done);
    out[`w${workers}.coresBusy`] = Math.round((r.cpuUs / r.wallUs) * 100) / 100;
    await e.close();
  }
  return out;
}

const STAGES: Record<string, (quick: boolean) => Promise<Figures>> = {
  compile: stageCompile,
  first: stageFirst,
  cold: stageCold,
  bridge: stageBridge,
  copyin: stageCopyIn,
  memory: stageMemory,
  throughput: stageThroughput,
};

export default async function stages({ arg }: SuiteOptions): Promise<Suite> {
  const f = STAGES[arg ?? ''];
  if (!f) throw new Error(`no such stage: ${arg}`);
  return { stage: ({ quick }) => f(quick) };
}
