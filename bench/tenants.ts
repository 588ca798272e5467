/**
 * Memory per warm tenant and a cold tenant's start, with `workers: 0` (issue 35 goal 4).
 *
 *   npm run bench:tenants -- [--tenants N] [--runs N] [--phases engine,cold,parts,split,floor] [--list-only]
 *     [--pages] [--v8 flag,flag] [--shared N]
 *
 * Each run is a fresh child process (one figure per process: RSS does not come back between
 * phases), and the figures are the medians of the runs:
 *
 * - `engine`: `createEngine({workers: 0})`, a base tenant, then N tenants that each render the
 *   benchmark page 20 times; (RSS - RSS before) / N, after the host's own GC;
 * - `cold`: the same engine, 15 new tenants arriving 250 ms apart (a warm spare ready for each):
 *   wall and CPU (the process's, isolated-vm's threads included) of each one's first
 *   `engine.render` (the template already compiled); then the CPU of the same for each other page
 *   of bench/pages (`coldCpuUs.<page>`, a new engine each), unless `--list-only`;
 * - `parts`: a cold tenant's first render of the list page taken apart, on spares as the engine
 *   makes them (a warm spare ready for each of 15 tenants, 250 ms apart), medians: the engine's
 *   cold render as process CPU and as the isolate's own CPU (`smartcage:render`'s cpuMs; the rest
 *   is the host's side and the hops); then, step by step on the next spares, the template's
 *   compile and define on the isolate's thread, the request's copy, the first three renders and the same
 *   page defined under another id and rendered first in that isolate (isolate CPU); `--pages`
 *   does it for every page of bench/pages;
 * - `split`: N isolates set up as the engine sets one up (src/sandbox/isolate-host.ts), 20 renders
 *   each, and where their RSS went: V8's heap as each isolate reports it (`getHeapStatistics`:
 *   committed, used, code space, malloced), and /proc/self/smaps by mapping kind (V8's 256 KB heap
 *   pages, malloc's main arena `[heap]`, the rest);
 * - `--shared N`: the engine and cold phases with every tenant in one isolate group and
 *   `pool.tenantsPerIsolate` N (D342): tenants share isolates N at a time, a context each;
 * - `floor`: N empty isolates with one context, nothing run: what any isolate costs here; then the
 *   same once each has made ~10 MB of short-lived objects (its young generation in use).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import ivm from 'isolated-vm';
import { createEngine } from '../src/index.js';
import { compile } from '../src/compiler/index.js';
import { RENDER_CHANNEL, type RenderEvent } from '../src/diagnostics.js';
import { IsolateHost, SparePool } from '../src/sandbox/isolate-host.js';
import { templateCodeCache } from '../src/sandbox/code-cache.js';
import { DEFAULT_LIMITS } from '../src/sandbox/limits.js';
import { renderRequest, withLimits } from '../src/sandbox/request.js';
import { SITE_DEFAULTS } from '../src/site-defaults.js';
import { generate } from './data/generate.js';
import { pages, type Page } from './pages/pages.js';

type Figures = Record<string, number>;

const arg = (name: string, d: number) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? d : Number(process.argv[i + 1]);
};
const TENANTS = arg('--tenants', 50);
const RUNS = arg('--runs', 3);
const RENDERS = 20;
/** `--phases engine,cold`: only those (an A/B of one figure). */
const ONLY = process.argv.includes('--phases') ? process.argv[process.argv.indexOf('--phases') + 1]!.split(',') : null;
/** `--v8 --always-sparkplug,--no-lazy-feedback-allocation`: V8 flags for the children (an A/B of a flag). */
const V8_FLAGS = process.argv.includes('--v8') ? process.argv[process.argv.indexOf('--v8') + 1]!.split(',') : [];
/** `--list-only`: the cold phase renders the list page only (as before the other pages were added). */
const ONLY_LIST = process.argv.includes('--list-only');
/** `--shared N`: the engine's tenants share isolates N at a time (one isolate group, D342). */
const SHARED = arg('--shared', 1);
/** The engine of the engine and cold phases: isolates of their own, or shared with `--shared`. */
const engineOptions = (timezone: string) =>
  SHARED > 1
    ? { workers: 0, timezone, pool: { tenantsPerIsolate: SHARED }, isolateGroup: () => 'one owner' }
    : { workers: 0, timezone };
const PAGE = readFileSync(new URL('templates/page.tpl', import.meta.url), 'utf8');
const KB = 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** RSS once pending isolate work has run and the host collected its garbage, bytes. */
async function settledRss(): Promise<number> {
  await sleep(300);
  gc();
  return process.memoryUsage.rss();
}

/** Resident bytes by mapping kind, from /proc/self/smaps. */
function smaps(): { v8Pages: number; mallocHeap: number; other: number } {
  const out = { v8Pages: 0, mallocHeap: 0, other: 0 };
  let kind: keyof typeof out = 'other';
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (head) {
      const size = parseInt(head[2]!, 16) - parseInt(head[1]!, 16);
      const name = head[4]!;
      // V8's heap pages are 256 KB mappings of their own (anonymous).
      kind = name === '[heap]' ? 'mallocHeap' : name === '' && size === 256 * KB ? 'v8Pages' : 'other';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[kind] += Number(rss[1]) * KB;
  }
  return out;
}

async function phaseEngine(): Promise<Figures> {
  const data = generate() as unknown as Record<string, unknown>;
  const e = createEngine(engineOptions('UTC'));
  const warm = async (tenant: string) => {
    for (let i = 0; i < RENDERS; i++) await e.render(PAGE, { name: 'page.tpl', vars: data, identity: { tenant } });
  };
  await warm('base');
  // The spare the base tenant's first render started is warm by now.
  await sleep(500);
  const rss0 = await settledRss();
  for (let t = 0; t < TENANTS; t++) await warm(`tenant${t}`);
  const rss1 = await settledRss();
  await e.close();
  return { rssPerTenantKB: Math.round((rss1 - rss0) / TENANTS / KB) };
}

/** Wall and CPU of the first render of each of 15 new tenants of `page`, a warm spare ready for each. */
async function coldOf(page: Page): Promise<{ wall: number; cpu: number }> {
  const e = createEngine(engineOptions(page.timezone));
  const render = (tenant: string) =>
    e.render(page.template, { name: `${page.name}.tpl`, vars: page.vars, identity: { tenant } });
  for (let i = 0; i < 3; i++) await render(`w${i}`);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 15; i++) {
    await sleep(250);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await render(`cold${i}`);
    // The process's CPU, isolated-vm's threads included: steadier than the wall on a loaded machine.
    const c = process.cpuUsage(c0);
    wall.push((performance.now() - t0) * 1000);
    cpu.push(c.user + c.system);
  }
  await e.close();
  return { wall: Math.round(median(wall)), cpu: Math.round(median(cpu)) };
}

async function phaseCold(): Promise<Figures> {
  const [list, ...others] = pages();
  const first = await coldOf(list!);
  const fig: Figures = { coldTenantWallUs: first.wall, coldTenantCpuUs: first.cpu };
  // The other pages of the multi-page benchmark: a warm-up that suits the list page alone would show here.
  if (!ONLY_LIST) for (const page of others) fig[`coldCpuUs.${page.name}`] = (await coldOf(page)).cpu;
  return fig;
}

/** `--pages`: the parts phase for every page of bench/pages, not the list page alone. */
const ALL_PAGES = process.argv.includes('--pages');
const cpuNow = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};

/** The parts of a cold tenant's first render of `page` (see `parts` above), µs. */
async function partsOf(page: Page, prefix: string): Promise<Figures> {
  const fig: Record<string, number[]> = {};
  const put = (k: string, v: number) => (fig[k] ??= []).push(v);
  // The engine's cold render: process CPU, and the isolate's share as the render channel reports it.
  const e = createEngine({ workers: 0, timezone: page.timezone });
  let iso = 0;
  const onEnd = (m: unknown) => (iso = ((m as RenderEvent).cpuMs ?? NaN) * 1000);
  const render = (tenant: string) =>
    e.render(page.template, { name: `${page.name}.tpl`, vars: page.vars, identity: { tenant } });
  subscribe(`tracing:${RENDER_CHANNEL}:asyncEnd`, onEnd);
  for (let i = 0; i < 3; i++) await render(`w${i}`);
  for (let i = 0; i < 15; i++) {
    await sleep(250);
    const c0 = cpuNow();
    await render(`cold${i}`);
    put('engineCpu', cpuNow() - c0);
    put('engineIsolateCpu', iso);
  }
  unsubscribe(`tracing:${RENDER_CHANNEL}:asyncEnd`, onEnd);
  await e.close();

  // Step by step, on spares made as the engine makes them.
  const r = compile(page.template, { name: 'p', id: 'p' });
  const template = (id: string) => ({ id, code: r.code.replaceAll('"p"', JSON.stringify(id)), filename: 'p.js' });
  const request = (id: string) =>
    withLimits(
      renderRequest({
        templateName: id,
        now: 1_700_000_000,
        site: { ...SITE_DEFAULTS, timezone: page.timezone },
        vars: page.vars,
        seed: Array.from({ length: 16 }, (_, i) => i),
      }),
      DEFAULT_LIMITS,
    );
  type Live = { context: ivm.Context; render: ivm.Reference<(...a: unknown[]) => unknown> };
  const spares = new SparePool();
  const take = async () => {
    const h = spares.acquire(128);
    await h.warmingUp();
    h.spareAfterRender = false;
    spares.prepare(128);
    // The spare's context is its tenant-less one (IsolateHost's `contexts`, '' until a tenant takes it).
    const inner = h as unknown as { isolate: ivm.Isolate; contexts: Map<string, Live>; retire(): void };
    return { isolate: inner.isolate, live: inner.contexts.get('')!, retire: () => inner.retire() };
  };
  const isoCpu = (i: ivm.Isolate) => Number(i.cpuTime) / 1000;
  const renderIn = async (h: { isolate: ivm.Isolate; live: Live }, id: string, copy: ivm.ExternalCopy) => {
    const i0 = isoCpu(h.isolate);
    const a = await h.live.render.apply(undefined, [id, copy.copyInto(), 0, false], { result: { copy: true } });
    if (typeof a === 'object' && a && 'error' in a) throw new Error(JSON.stringify(a));
    return isoCpu(h.isolate) - i0;
  };
  (await take()).retire();
  await templateCodeCache.settled();
  for (let i = 0; i < 15; i++) {
    await sleep(250);
    const h = await take();
    const t = template('p');
    // As a tenant's first render defines it (D292): compiled and run on the isolate's thread.
    const i0 = isoCpu(h.isolate);
    await h.live.context.eval(t.code, { filename: t.filename });
    put('defineIsolateCpu', isoCpu(h.isolate) - i0);
    const c1 = cpuNow();
    const copy = new ivm.ExternalCopy(request('p'));
    put('copyCpu', cpuNow() - c1);
    put('render1IsolateCpu', await renderIn(h, 'p', copy));
    put('render2IsolateCpu', await renderIn(h, 'p', copy));
    put('render3IsolateCpu', await renderIn(h, 'p', copy));
    copy.release();
    const q = template('q');
    await templateCodeCache.compile(h.isolate, q.code, q.filename).run(h.live.context, { release: true });
    const copyQ = new ivm.ExternalCopy(request('q'));
    put('otherIdRender1IsolateCpu', await renderIn(h, 'q', copyQ));
    copyQ.release();
    h.retire();
  }
  await spares.close();
  const out: Figures = {};
  for (const [k, v] of Object.entries(fig)) out[`${prefix}${k}`] = Math.round(median(v));
  return out;
}

async function phaseParts(): Promise<Figures> {
  const [list, ...others] = pages();
  const fig = await partsOf(list!, '');
  if (ALL_PAGES) for (const page of others) Object.assign(fig, await partsOf(page, `${page.name}.`));
  return fig;
}

async function phaseSplit(): Promise<Figures> {
  const data = generate() as unknown as Record<string, unknown>;
  const r = compile(PAGE, { name: 'page.tpl', id: 'page.tpl' });
  const t = { id: 'page.tpl', code: r.code, filename: 'page.js', hostFree: r.manifest.host.length === 0 };
  const request = () =>
    renderRequest({
      templateName: 'page.tpl',
      now: 1_700_000_000,
      site: { ...SITE_DEFAULTS, timezone: 'UTC' },
      vars: data,
      seed: Array.from({ length: 16 }, (_, i) => i),
    });
  const one = async () => {
    const h = new IsolateHost(128);
    for (let i = 0; i < RENDERS; i++) {
      const res = await h.render(t, request(), DEFAULT_LIMITS, null);
      if (res.error) throw new Error(`${res.error.code}: ${res.error.message}`);
    }
    return h;
  };
  (await one()).retire();
  const rss0 = await settledRss();
  const m0 = smaps();
  const hosts: IsolateHost[] = [];
  for (let i = 0; i < TENANTS; i++) hosts.push(await one());
  const rss1 = await settledRss();
  const m1 = smaps();
  const heap = { total: 0, used: 0, executable: 0, malloced: 0, external: 0 };
  for (const h of hosts) {
    const s = (h as unknown as { isolate: ivm.Isolate }).isolate.getHeapStatisticsSync();
    heap.total += s.total_heap_size;
    heap.used += s.used_heap_size;
    heap.executable += s.total_heap_size_executable;
    heap.malloced += s.malloced_memory;
    heap.external += s.externally_allocated_size;
  }
  for (const h of hosts) h.retire();
  const per = (x: number) => Math.round(x / TENANTS / KB);
  return {
    rssPerIsolateKB: per(rss1 - rss0),
    'smaps.v8PagesKB': per(m1.v8Pages - m0.v8Pages),
    'smaps.mallocHeapKB': per(m1.mallocHeap - m0.mallocHeap),
    'smaps.otherKB': per(m1.other - m0.other),
    'heap.committedKB': per(heap.total),
    'heap.usedKB': per(heap.used),
    'heap.codeSpaceKB': per(heap.executable),
    'heap.mallocedKB': per(heap.malloced),
    'heap.externalKB': per(heap.external),
  };
}

async function phaseFloor(): Promise<Figures> {
  const isolates: { iso: ivm.Isolate; context: ivm.Context }[] = [];
  const rss0 = await settledRss();
  const m0 = smaps();
  for (let i = 0; i < TENANTS; i++) {
    const iso = new ivm.Isolate({ memoryLimit: 128 });
    isolates.push({ iso, context: iso.createContextSync() });
  }
  const rss1 = await settledRss();
  const m1 = smaps();
  const s = isolates[0]!.iso.getHeapStatisticsSync();
  // The same isolates once short-lived objects have gone through their young generation, as any
  // render's do: V8's least new space on x64 without pointer compression is two 1 MB semispaces.
  for (const { context } of isolates)
    context.evalSync('for (let i = 0; i < 100; i++) { const a = []; for (let j = 0; j < 2000; j++) a.push({ j }); }');
  const rss2 = await settledRss();
  for (const { iso } of isolates) iso.dispose();
  const per = (x: number) => Math.round(x / TENANTS / KB);
  return {
    emptyIsolateKB: per(rss1 - rss0),
    emptyIsolateAfterGarbageKB: per(rss2 - rss0),
    'empty.v8PagesKB': per(m1.v8Pages - m0.v8Pages),
    'empty.mallocHeapKB': per(m1.mallocHeap - m0.mallocHeap),
    'empty.otherKB': per(m1.other - m0.other),
    'empty.heapCommittedKB': Math.round(s.total_heap_size / KB),
    'empty.heapUsedKB': Math.round(s.used_heap_size / KB),
  };
}

/** Phases run unless `--phases` names them. */
const DEFAULT_PHASES = ['engine', 'cold', 'split', 'floor'];

const PHASES: Record<string, () => Promise<Figures>> = {
  engine: phaseEngine,
  cold: phaseCold,
  parts: phaseParts,
  split: phaseSplit,
  floor: phaseFloor,
};

const child = process.argv.indexOf('--phase');
if (child >= 0) {
  const f = PHASES[process.argv[child + 1]!];
  if (!f) throw new Error(`no such phase: ${process.argv[child + 1]}`);
  process.stdout.write(JSON.stringify(await f()));
} else {
  const self = fileURLToPath(import.meta.url);
  const runs: Figures[] = [];
  for (let r = 0; r < RUNS; r++) {
    const fig: Figures = {};
    for (const phase of Object.keys(PHASES).filter((p) => (ONLY ? ONLY.includes(p) : DEFAULT_PHASES.includes(p)))) {
      const out = execFileSync(
        process.execPath,
        [
          '--no-node-snapshot',
          '--expose-gc',
          ...V8_FLAGS,
          '--import',
          'tsx',
          self,
          '--phase',
          phase,
          '--tenants',
          String(TENANTS),
          ...(ONLY_LIST ? ['--list-only'] : []),
          ...(ALL_PAGES ? ['--pages'] : []),
          ...(SHARED > 1 ? ['--shared', String(SHARED)] : []),
        ],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
      );
      Object.assign(fig, JSON.parse(out) as Figures);
    }
    runs.push(fig);
    process.stderr.write(`run ${r + 1}: ${JSON.stringify(fig)}\n`);
  }
  console.log(`workers 0, ${TENANTS} tenants x ${RENDERS} renders of the page; median of ${RUNS} runs (min-max)`);
  console.log('| figure | median | range |');
  console.log('|---|---:|---|');
  for (const k of Object.keys(runs[0]!)) {
    const xs = runs.map((f) => f[k]!);
    console.log(`| ${k} | ${median(xs)} | ${Math.min(...xs)}-${Math.max(...xs)} |`);
  }
}
