/**
 * `npm run bench:profile -- --construct NAME | --page NAME | --template TEXT [--renders N] [--interval µs] [--top N] [--out FILE] [--fresh]`:
 * a CPU profile of a template's renders inside an isolate, taken by V8's sampling profiler
 * through isolated-vm's inspector. The isolate is a bench isolate (bench/lib/harness.ts: the
 * runtime bundle with its lockdown, as IsolateHost sets one up), the vars resident and the
 * compiled template rendered N times in one call, so the profile is the template's own code and
 * the plugins it calls, without the crossing. With `--fresh`, each render is instead a call of
 * the runtime's `render` with the request copied in (its lists of rows as tables) and the answer
 * copied out, as IsolateHost makes it (no slice timeout): the isolate's side of a whole request,
 * its vars' first reads, the output's flattening and the garbage included. Prints self time per
 * function, highest first; `--out` also writes the .cpuprofile (Chrome DevTools, speedscope).
 *
 * Why: plain Node profiles of a plugin mislead (other JIT state, no lockdown, tsx's __name
 * wrappers); bench:constructs says which construct is slow, this says where inside the isolate.
 */
import ivm from 'isolated-vm';
import { writeFileSync } from 'node:fs';
import { runBench, UsageError, wholeNumber } from './lib/cli.js';
import { constructs, constructVars } from './constructs/constructs.js';
import { pages } from './pages/pages.js';
import type { PageData } from './data/generate.js';
import { withTables } from '../src/sandbox/request.js';

const HELP = `Usage: npm run bench:profile -- (--construct NAME | --page NAME | --template TEXT) [options]

  --construct NAME  a construct of bench:constructs (its 100 rows as vars)
  --page NAME       a page of bench:pages (its vars)
  --template TEXT   a template of your own, over the constructs' rows
  --renders N       renders in the profiled call (default 2000)
  --interval US     sampling interval in µs (default 50)
  --top N           functions listed (default 30)
  --out FILE        also write the .cpuprofile there
  --fresh           one render per call, the request copied in and the answer out (as a request)`;

interface Options {
  template: string;
  vars: Record<string, unknown>;
  label: string;
  renders: number;
  interval: number;
  top: number;
  out: string | null;
  fresh: boolean;
}

function parseArgs(argv: string[]): Options | null {
  let source: Pick<Options, 'template' | 'vars' | 'label'> | null = null;
  const o = { renders: 2000, interval: 50, top: 30, out: null as string | null, fresh: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const v = argv[i + 1];
    if (a === '--help' || a === '-h') return null;
    if (a === '--fresh') {
      o.fresh = true;
      continue;
    }
    if (a === '--construct') {
      const c = constructs().find((x) => x.name === v);
      if (!c) throw new UsageError(`no such construct: ${v}`);
      source = { template: c.template, vars: constructVars(), label: `construct ${v}` };
    } else if (a === '--page') {
      const p = pages().find((x) => x.name === v);
      if (!p) throw new UsageError(`no such page: ${v}`);
      source = { template: p.template, vars: p.vars, label: `page ${v}` };
    } else if (a === '--template') source = { template: String(v), vars: constructVars(), label: 'template' };
    else if (a === '--renders') o.renders = wholeNumber(a, v);
    else if (a === '--interval') o.interval = wholeNumber(a, v);
    else if (a === '--top') o.top = wholeNumber(a, v);
    else if (a === '--out') o.out = String(v);
    else throw new UsageError(`unknown option ${a}`);
    i++;
  }
  if (!source) throw new UsageError('name a --construct, a --page or a --template');
  return { ...source, ...o };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** One inspector session: commands answered by id. */
function inspector(isolate: ivm.Isolate) {
  const session = isolate.createInspectorSession();
  const waiting = new Map<number, (r: { result?: unknown; error?: { message: string } }) => void>();
  let next = 1;
  session.onResponse = (id, message) => waiting.get(id)?.(JSON.parse(message));
  session.onNotification = () => {};
  return {
    send(method: string, params: object = {}): Promise<unknown> {
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, (r) => (r.error ? reject(new Error(`${method}: ${r.error.message}`)) : resolve(r.result)));
        session.dispatchProtocolMessage(JSON.stringify({ id, method, params }));
      });
    },
    dispose: () => session.dispose(),
  };
}

/** Self time per function, as a share of the samples. */
function selfTimes(p: Profile): [string, number][] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const n = byId.get(id)!;
    const where = n.callFrame.url ? ` ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}` : '';
    const k = `${n.callFrame.functionName || '(anonymous)'}${where}`;
    const dt = p.timeDeltas[i] ?? 0;
    self.set(k, (self.get(k) ?? 0) + dt);
    total += dt;
  });
  return [...self].map(([k, t]): [string, number] => [k, t / total]).sort((a, b) => b[1] - a[1]);
}

async function main(o: Options): Promise<number> {
  // The compiler of src/ (the harness compiles the template), not a bundle made by bench:run.
  process.env.BENCH_SRC ??= '1';
  const { BenchIsolate, renderRequest } = await import('./lib/harness.js');
  const isolate = new ivm.Isolate({ memoryLimit: 128, inspector: true });
  const bench = new BenchIsolate(128, undefined, isolate);
  try {
    bench.define(o.template, 'profiled.tpl');
    bench.setResident(o.vars as unknown as PageData);
    const loop = bench.fn('scLoop');
    const request = withTables(renderRequest(o.vars, 'profiled.tpl'));
    // `apply`, not `applySync`: the sampling profiler sees nothing of a synchronous call's isolate.
    const fresh = async (n: number) => {
      for (let i = 0; i < n; i++)
        await bench.render.apply(
          undefined,
          ['profiled.tpl', new ivm.ExternalCopy(request).copyInto({ release: true })],
          {
            result: { copy: true },
          },
        );
    };
    const run = (n: number) => (o.fresh ? fresh(n) : loop.apply(undefined, ['profiled.tpl', n]));
    // Warm: the code V8 optimizes is what the profile should see.
    await run(Math.max(50, o.renders >> 2));
    const session = inspector(isolate);
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: o.interval });
    await session.send('Profiler.start');
    const t0 = process.hrtime.bigint();
    await run(o.renders);
    const us = Number(process.hrtime.bigint() - t0) / 1000 / o.renders;
    const { profile } = (await session.send('Profiler.stop')) as { profile: Profile };
    session.dispose();
    if (o.out) writeFileSync(o.out, JSON.stringify(profile));
    const how = o.fresh ? 'renders, one per call, request in and answer out' : 'renders in one call';
    console.log(`${o.label}: ${o.renders} ${how}, ${us.toFixed(1)} µs wall each (profiling on)`);
    for (const [k, share] of selfTimes(profile).slice(0, o.top))
      console.log(`${(share * 100).toFixed(1).padStart(5)}%  ${k}`);
  } finally {
    bench.dispose();
    // An exit while the disposed isolate's inspector is still ending crashes the process (D351).
    await new Promise((r) => setTimeout(r, 100));
  }
  return 0;
}

runBench('bench:profile', HELP, parseArgs, main);
