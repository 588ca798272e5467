/**
 * What tenants sharing one isolate would save (D315's lever, measured before it is built): the
 * list page rendered by N tenants in turn, three ways, in one process, rounds alternating:
 *
 * - `one`: a single tenant, every render its own (the benchmark's headline case);
 * - `isolates`: N tenants, an isolate each (what the engine does);
 * - `contexts`: N tenants, a context each in one shared isolate (runtime, bootstrap and lockdown
 *   per context, the runtime's script compiled once per isolate by V8's cache).
 *
 * Each render is one `applySync` of the runtime's `render` with the request copied in and the
 * output copied out, as IsolateHost's slice does (bench/lib/harness.ts). CPU µs per render of the
 * process, median (range) of the rounds.
 *
 * `--rss`: instead, memory per tenant of `isolates` and `contexts`, each in a fresh child process
 * (RSS does not come back within one): after a baseline tenant, N tenants set up and 20 renders
 * each, (RSS after - RSS before) / N after the host's GC, and the committed heap per tenant (the
 * shared isolate's over all its tenants); median of the runs.
 *
 *   node --no-node-snapshot --import tsx bench/contexts.ts [--tenants N] [--rounds N] [--renders N]
 *   node --no-node-snapshot --expose-gc --import tsx bench/contexts.ts --rss [--tenants N] [--runs N]
 */
import ivm from 'isolated-vm';
import type { BenchIsolate } from './lib/harness.js';
import { generate } from './data/generate.js';
import { median } from './lib/measure.js';

// The compiler from src/, not bench/.build (which only `npm run bench` makes): the runtime bundle
// is what is measured. Set before the harness loads, hence its import here.
process.env.BENCH_SRC ??= '1';
const { BenchIsolate: Bench, PAGE_TPL, renderRequest } = await import('./lib/harness.js');

const arg = (name: string, d: number) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? d : Number(process.argv[i + 1]);
};
const TENANTS = arg('--tenants', 16);
const ROUNDS = arg('--rounds', 5);
const RENDERS = arg('--renders', 100);
const WARM = 400;

const request = renderRequest(generate());
const heap = (i: ivm.Isolate) => i.getHeapStatisticsSync().total_heap_size / 1024;
/** Committed heap per tenant, KB: a shared isolate's over all its tenants, or the mean of their own. */
const heapPerTenant = (list: BenchIsolate[], shared: ivm.Isolate | undefined): number =>
  shared ? heap(shared) / list.length : list.reduce((n, b) => n + heap(b.isolate), 0) / list.length;
/** `median (min-max)` of a run's figures. */
const spread = (xs: number[]) =>
  `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`;
const make = (isolate?: ivm.Isolate): BenchIsolate => {
  const b = new Bench(128, undefined, isolate);
  b.define(PAGE_TPL, 'page.tpl');
  return b;
};
const renderOnce = (b: BenchIsolate): number => {
  const out = b.render.applySync(undefined, ['page.tpl', new ivm.ExternalCopy(request).copyInto({ release: true })], {
    result: { copy: true },
  }) as { output?: string } | string;
  return (typeof out === 'string' ? out : (out.output ?? '')).length;
};

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
if (only) {
  // A child of --rss: one setup's memory per tenant, as JSON on stdout.
  // After a baseline tenant (the host's own modules, caches and heap settled, and for `contexts`
  // the shared isolate made), as bench/tenants.ts does: what each further tenant adds.
  const gc = (globalThis as { gc?: () => void }).gc!;
  const shared = only === 'contexts' ? new ivm.Isolate({ memoryLimit: 128 * (TENANTS + 1) }) : undefined;
  const base = make(shared);
  for (let i = 0; i < 20; i++) renderOnce(base);
  gc();
  const before = process.memoryUsage().rss;
  const list = Array.from({ length: TENANTS }, () => make(shared));
  for (const b of list) for (let i = 0; i < 20; i++) renderOnce(b);
  gc();
  const rssKB = (process.memoryUsage().rss - before) / 1024 / TENANTS;
  const heapKB = shared ? heapPerTenant([base, ...list], shared) : heapPerTenant(list, undefined);
  console.log(JSON.stringify({ rssKB, heapKB }));
  process.exit(0);
}
if (process.argv.includes('--rss')) {
  const { execFileSync } = await import('node:child_process');
  const runs = arg('--runs', 3);
  console.log(
    `list page, ${TENANTS} tenants, 20 renders each: KB per tenant, median (range) of ${runs} processes each`,
  );
  console.log('| setup | RSS per tenant | heap committed per tenant |');
  console.log('|---|---:|---:|');
  for (const name of ['isolates', 'contexts']) {
    const got: { rssKB: number; heapKB: number }[] = [];
    for (let r = 0; r < runs; r++) {
      const out = execFileSync(
        process.execPath,
        [...process.execArgv, process.argv[1]!, '--only', name, '--tenants', String(TENANTS)],
        { encoding: 'utf8' },
      );
      got.push(JSON.parse(out.trim().split('\n').pop()!));
    }
    console.log(`| ${name} | ${spread(got.map((x) => x.rssKB))} | ${spread(got.map((x) => x.heapKB))} |`);
  }
  process.exit(0);
}

const shared = new ivm.Isolate({ memoryLimit: 128 * TENANTS });
const setups: Record<string, BenchIsolate[]> = {
  one: [make()],
  isolates: Array.from({ length: TENANTS }, () => make()),
  contexts: Array.from({ length: TENANTS }, () => make(shared)),
};
const expected = renderOnce(setups.one![0]!);
for (const list of Object.values(setups))
  for (const b of list)
    for (let i = 0; i < WARM; i++) if (renderOnce(b) !== expected) throw new Error('output differs');

const figures: Record<string, number[]> = { one: [], isolates: [], contexts: [] };
const names = Object.keys(setups);
for (let r = 0; r < ROUNDS; r++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(r + k) % names.length]!;
    const list = setups[name]!;
    const n = RENDERS * TENANTS;
    const t0 = process.cpuUsage();
    for (let i = 0; i < n; i++) renderOnce(list[i % list.length]!);
    const t = process.cpuUsage(t0);
    figures[name]!.push((t.user + t.system) / n);
  }
  process.stderr.write(`round ${r + 1}/${ROUNDS}\n`);
}
console.log(
  `list page, ${TENANTS} tenants in turn: CPU µs per render, median (range) of ${ROUNDS} rounds x ${RENDERS * TENANTS}`,
);
console.log('| setup | µs per render | × one | heap committed per tenant, KB |');
console.log('|---|---:|---:|---:|');
const one = median(figures.one!);
for (const name of names) {
  const xs = figures[name]!;
  const kb = heapPerTenant(setups[name]!, name === 'contexts' ? shared : undefined);
  console.log(`| ${name} | ${spread(xs)} | ${(median(xs) / one).toFixed(2)} | ${kb.toFixed(0)} |`);
}
for (const list of Object.values(setups)) for (const b of list) b.dispose();
