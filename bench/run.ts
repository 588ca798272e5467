/**
 * `npm run bench [-- --quick]`: the benchmark suite of issue 5. Builds the runtime bundle, checks
 * that every engine's page is byte-equal to the hand-written function's, times render throughput
 * in interleaved rounds (each engine in a process of its own, one process running at a time),
 * then runs the one-shot stages, prints the table of ratios against the targets and writes
 * bench/RESULTS.md (a quick run writes test-artifacts/bench-quick.md instead: the committed
 * results are always a full run).
 */
import { execFileSync, execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generate } from './data/generate.js';
import { makeHandWritten } from './engines/hand-written.js';
import { Child } from './lib/rpc.js';
import { median, type Sample } from './lib/measure.js';
import { buildSmartcage } from './lib/build.js';
import { readPages, readServe } from './lib/issue35.js';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 3 : 7;
const SAMPLE_MS = quick ? 100 : 300;
const root = fileURLToPath(new URL('..', import.meta.url));
const started = Date.now();
const log = (s: string) => process.stderr.write(`${s}\n`);

execFileSync(process.execPath, ['scripts/build-runtime.mjs'], { cwd: root, stdio: 'inherit' });
const fromSrc = process.argv.includes('--src');
if (fromSrc) process.env.BENCH_SRC = '1';
else buildSmartcage();

/** Children of the render rounds, and the subjects each one times. */
const RENDER_SUITES = [
  'plain',
  'peer:eta',
  'peer:handlebars',
  'peer:nunjucks',
  'peer:jsmart',
  'peer:liquid',
  'sandbox',
  'engine:0',
  'engine:0r',
  'engine:1',
  'engine:2',
];
const STAGES = ['compile', 'first', 'cold', 'bridge', 'copyin', 'memory', 'throughput'];

const expected = makeHandWritten()(generate());
const versions: Record<string, string> = {};
const children: { child: Child; subjects: string[] }[] = [];

log(`bench: ${quick ? 'quick' : 'full'} run, ${ROUNDS} rounds of ${SAMPLE_MS} ms samples`);
for (const suite of RENDER_SUITES) {
  const child = new Child(suite, quick);
  await child.ready;
  const { outputs, versions: v } = await child.call<{
    outputs: Record<string, string>;
    versions: Record<string, string>;
  }>('check');
  Object.assign(versions, v);
  for (const [subject, out] of Object.entries(outputs)) {
    if (out !== expected) {
      let i = 0;
      while (out[i] === expected[i]) i++;
      log(`bench: FAIL: ${subject} (${suite}) differs from the hand-written output at character ${i}:`);
      log(`  expected ${JSON.stringify(expected.slice(Math.max(0, i - 60), i + 60))}`);
      log(`  got      ${JSON.stringify(out.slice(Math.max(0, i - 60), i + 60))}`);
      process.exit(1);
    }
  }
  children.push({ child, subjects: Object.keys(outputs) });
}
log(
  `bench: all ${children.reduce((n, c) => n + c.subjects.length, 0)} outputs are byte-equal to the hand-written page (${expected.length} characters)`,
);

for (const { child, subjects } of children)
  for (const s of subjects) await child.call('calibrate', { subject: s, ms: SAMPLE_MS });

const all = children.flatMap(({ child, subjects }) => subjects.map((subject) => ({ child, subject })));
const samples = new Map<string, Sample[]>();
for (let r = 0; r < ROUNDS; r++) {
  // Rotate the order each round, so that no subject always follows the same one.
  const order = all.map((_, i) => all[(i + r * 3) % all.length]);
  for (const { child, subject } of order) {
    const s = await child.call<Sample>('sample', { subject, ms: SAMPLE_MS });
    if (!samples.has(subject)) samples.set(subject, []);
    samples.get(subject)!.push(s);
  }
  log(`bench: round ${r + 1}/${ROUNDS} done`);
}
for (const { child } of children) await child.exit();

const perOp = (subject: string, clock: 'cpuUs' | 'wallUs') => samples.get(subject)!.map((s) => s[clock] / s.ops);
const ratio = (subject: string, base: string, clock: 'cpuUs' | 'wallUs') => {
  const a = perOp(subject, clock);
  const b = perOp(base, clock);
  return median(a.map((x, i) => x / b[i]));
};

const stages: Record<string, Record<string, number | string>> = {};
for (const stage of STAGES) {
  const child = new Child(`stages:${stage}`, quick);
  await child.ready;
  stages[stage] = await child.call('stage');
  await child.exit();
  log(`bench: stage ${stage} done`);
}

// The pages against Smarty 2.6.33 (issue 35) and the serve-level rows (issue 31) are their own
// scripts, each run in a process of its own here so that one `npm run bench` shows every target.
const part = (what: string, args: string[]): string => {
  log(`bench: ${what}`);
  try {
    return execFileSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', ...args], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 16 * 1024 * 1024,
    }).trim();
  } catch (e) {
    // A script that printed its table and then failed (bench:constructs when an output differs)
    // keeps its table, with why it failed under it.
    const printed = String((e as { stdout?: unknown }).stdout ?? '').trim();
    const why = `${what} failed: ${(e as Error).message.split('\n')[0]}`;
    return printed ? `${printed}\n\n${why}` : why;
  }
};
// The 16-tenant row is what a host of many sites sees (D315), and the next the same tenants as one
// owner's, sharing isolates (D342); the headline stays one warm tenant.
const pagesPart = part('pages (bench/pages.ts)', [
  'bench/pages.ts',
  '--tenants',
  '16',
  '--shared',
  '16',
  ...(quick ? ['--rounds', '2', '--renders', '100'] : []),
]);
// Each construct of a page on its own against Smarty 2.6.33: where a page of it would lose
// whatever the floor does (issue 35: any page, not only the five).
const constructsPart = part('constructs (bench/constructs.ts)', [
  'bench/constructs.ts',
  ...(quick ? ['--rounds', '2', '--renders', '100'] : []),
]);
// The endpoints twice, taking turns: `serve --site` as it starts by default (one child under a
// primary, its isolates in the child, D371) and under `--processes 2` (children rendering in-process, which the
// primary restarts: what `--sites` runs by default, D200).
const servePart = part('serve (bench/serve.ts)', [
  'bench/serve.ts',
  'rps',
  '--variants',
  'serve=;processes=--processes 2',
  ...(quick ? ['--rounds', '1', '--ms', '2000'] : ['thousand']),
]);

// ---------------------------------------------------------------- report
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(x >= 100 ? 0 : 1) : '–');
const fx = (x: number) => `${x.toFixed(2)}x`;
const LABELS: Record<string, string> = {
  plain: 'hand-written JS (the limit), host',
  eta: 'Eta, compiled function',
  handlebars: 'Handlebars, precompiled',
  nunjucks: 'Nunjucks, autoescape',
  jsmart: 'jSmart (Smarty port)',
  liquid: 'LiquidJS, parse once + renderSync',
  'plain.inIsolate': 'hand-written JS inside an isolate, N renders per call, vars resident',
  'sc.inIsolate': '**smartcage compiled render inside the isolate, N renders per call, vars resident (a)**',
  'sc.call.resident': 'smartcage, one sync call per render, vars resident, output copied out',
  'plain.call.copy':
    "hand-written in isolate, one sync call per render, ExternalCopy vars in, output out (the anchors' floor)",
  'sc.call.copy': 'smartcage, one sync call per render, ExternalCopy vars in, output out (IsolateHost, sync)',
  'sc.call.copy.async': 'smartcage, same through async `apply` (what IsolateHost does)',
  'plain.call.copy.async':
    'hand-written in isolate, same through async `apply` (the floor of a render started with the async API)',
  'sc.engine.w0': '**smartcage `engine.render`, workers: 0 (whole request) (b)**',
  'sc.engine.w0.req':
    'smartcage `engine.render`, workers: 0, fixed `identity.requestId` (no request-globals sweep growth)',
  'sc.engine.w1': '**smartcage `engine.render`, workers: 1 (whole request, IPC to a worker) (b)**',
  'sc.engine.w2': '**smartcage `engine.render`, workers: 2, the default (whole request) (b)**',
  'sc.engine.w0.burst': 'smartcage `engine.render`, workers: 0, a burst: 8 renders in flight over 16 tenants',
  'sc.engine.w1.burst': 'smartcage `engine.render`, workers: 1, a burst: 8 renders in flight over 16 tenants',
  'sc.engine.w2.burst': '**smartcage `engine.render`, workers: 2, a burst: 8 renders in flight over 16 tenants**',
};
const renderRows = [...samples.keys()].map((s) => {
  const cpu = median(perOp(s, 'cpuUs'));
  const wall = median(perOp(s, 'wallUs'));
  return `| ${LABELS[s] ?? s} | ${versions[s] ?? ''} | ${f1(wall)} | ${f1(cpu)} | ${Math.round(1e6 / wall)} | **${fx(ratio(s, 'plain', 'cpuUs'))}** | ${fx(ratio(s, 'plain', 'wallUs'))} |`;
});

const plainPerSec = 1e6 / median(perOp('plain', 'wallUs'));
const st = stages;
const num = (x: number | string | undefined) => Number(x);
type Target = { what: string; measured: number; unit: string; target: number; shown: string; times: string };
const targets: Target[] = [
  {
    what: 'compiled render inside the sandbox, vars in place',
    measured: ratio('sc.inIsolate', 'plain', 'cpuUs'),
    unit: 'x',
    target: 1.3,
    shown: `${fx(ratio('sc.inIsolate', 'plain', 'cpuUs'))} of hand-written (host); ${fx(ratio('sc.inIsolate', 'plain.inIsolate', 'cpuUs'))} of hand-written in the same locked-down isolate, where the hand-written function takes ${fx(ratio('plain.inIsolate', 'plain', 'cpuUs'))} of its time on the host`,
    times: 'CPU, row (a)',
  },
  {
    what: 'whole sandboxed render per request (workers: 0)',
    measured: ratio('sc.engine.w0', 'plain', 'cpuUs'),
    unit: 'x',
    target: 3,
    shown: `${fx(ratio('sc.engine.w0', 'plain', 'cpuUs'))}; the hand-written function through the same async \`apply\`, vars copied in and output out: ${fx(ratio('plain.call.copy.async', 'plain', 'cpuUs'))}`,
    times: 'CPU, engine.render awaited, vars as data',
  },
  {
    what: 'whole sandboxed render per request (workers: 1)',
    measured: ratio('sc.engine.w1', 'plain', 'cpuUs'),
    unit: 'x',
    target: 3,
    shown: fx(ratio('sc.engine.w1', 'plain', 'cpuUs')),
    times: 'CPU of host + worker',
  },
  {
    what: 'template source -> ready renderer (compile())',
    measured: num(st.compile.compileCpuUsMedian),
    unit: 'µs',
    target: 150,
    shown: `${st.compile.compileCpuUsMedian} µs CPU`,
    times: 'median of single compiles of never-seen sources, warm process',
  },
  {
    what: 'first output of a new template, warm tenant (workers: 0)',
    measured: num(st.first['w0.firstOutputWallUs']),
    unit: 'µs',
    target: 1500,
    shown: `${st.first['w0.firstOutputWallUs']} µs wall; ${st.first['w0.firstOutputAfterGcWallUs']} µs right after a forced full GC of the host`,
    times: 'engine.render of a never-seen source in a tenant that has just rendered another template',
  },
  {
    what: 'cold tenant (workers: 0)',
    measured: num(st.cold['w0.coldTenantWallUs']),
    unit: 'µs',
    target: 4000,
    shown: `${st.cold['w0.coldTenantWallUs']} µs wall with a warm spare ready (arrivals 250 ms apart); ${st.cold['w0.coldTenantAfterGcWallUs']} µs right after a forced full GC of the host; ${st.cold['w0.coldTenantBackToBackWallUs']} µs back to back`,
    times: 'engine.render for a new tenant: spare isolate (or a new one), template, vars, render',
  },
  {
    what: 'RSS per warm tenant isolate (workers: 0)',
    measured: num(st.memory['w0.rssPerTenantKB']),
    unit: 'KB',
    target: 2048,
    shown: `${st.memory['w0.rssPerTenantKB']} KB; the hand-written function in a bare isolate, same vars copied in and 20 renders: ${st.memory['floor.rssPerIsolateKB']} KB`,
    times: `RSS growth / ${st.memory.tenants} tenants, 20 renders each`,
  },
  ...([2, 0] as const).map((w): Target => {
    const perSec = num(st.throughput[`w${w}.rendersPerSec`]);
    return {
      what: `throughput, ${w ? `${w} workers` : 'workers: 0'}, 4 tenants, 8 in flight, vs one plain thread`,
      measured: perSec / plainPerSec,
      unit: 'x',
      target: 0.4,
      shown: `${fx(perSec / plainPerSec)} (${perSec}/s vs ${Math.round(plainPerSec)}/s)`,
      times: w
        ? 'anchors section 5: >= 0.4x with copied vars; the default, renders in worker processes'
        : "anchors section 5's design: a pool of isolates in the process, async `apply`, vars copied",
    };
  }),
];
/** Issue 18: the default deployment (worker processes) against the same render in this process. */
const workerTargets: Target[] = [
  ...([1, 2] as const).map((w): Target => ({
    what: `CPU per render through worker processes (workers: ${w}) vs in-process (workers: 0)`,
    measured: ratio(`sc.engine.w${w}`, 'sc.engine.w0', 'cpuUs'),
    unit: 'x',
    target: 1.25,
    shown: `${fx(ratio(`sc.engine.w${w}`, 'sc.engine.w0', 'cpuUs'))} (${f1(median(perOp(`sc.engine.w${w}`, 'cpuUs')))} against ${f1(median(perOp('sc.engine.w0', 'cpuUs')))} µs)`,
    times: 'CPU of the engine process and its workers, renders awaited one at a time',
  })),
  {
    what: 'a burst with 2 workers vs in-process (wall per render, 8 in flight)',
    measured: ratio('sc.engine.w2.burst', 'sc.engine.w0.burst', 'wallUs'),
    unit: 'x',
    target: 0.75,
    shown: `${fx(ratio('sc.engine.w2.burst', 'sc.engine.w0.burst', 'wallUs'))} (${f1(median(perOp('sc.engine.w2.burst', 'wallUs')))} against ${f1(median(perOp('sc.engine.w0.burst', 'wallUs')))} µs; workers: 1 ${f1(median(perOp('sc.engine.w1.burst', 'wallUs')))} µs)`,
    times: 'wall per render, 8 renders in flight over 16 tenants',
  },
  {
    what: 'whole request in-process (workers: 0) vs hand-written',
    measured: ratio('sc.engine.w0', 'plain', 'cpuUs'),
    unit: 'x',
    target: 3,
    shown: `${fx(ratio('sc.engine.w0', 'plain', 'cpuUs'))}; the hand-written function through the same async \`apply\`: ${fx(ratio('plain.call.copy.async', 'plain', 'cpuUs'))}`,
    times: 'CPU, engine.render awaited, vars in, output out',
  },
  {
    what: 'RSS per warm tenant (workers: 1)',
    measured: num(st.memory['w1.rssPerTenantKB']),
    unit: 'KB',
    target: 4096,
    shown: `${st.memory['w1.rssPerTenantKB']} KB right after the renders; ${st.memory['w1.rssPerTenantIdleKB']} KB once idle, after the idle collection (workers: 0 ${st.memory['w0.rssPerTenantKB']} KB)`,
    times: `RSS growth of the worker / ${st.memory.tenants} tenants, 20 renders each; status on the first figure`,
  },
  {
    what: 'RSS per idle tenant after eviction (workers: 1)',
    measured: num(st.memory['w1.rssPerTenantAfterEvictionKB']),
    unit: 'KB',
    target: 256,
    shown: `${st.memory['w1.rssPerTenantAfterEvictionKB']} KB`,
    times:
      'the same, after the isolates went idle and were disposed, and the worker, holding none, was replaced by a fresh one (`recycleIdleAboveMB`)',
  },
];
/** Issue 35: faster than the PHP engine it replaces, on every page and endpoint (bench/lib/issue35.ts). */
const pagesFigures = readPages(pagesPart);
const serveFigures = readServe(servePart);
const noSmarty = 'not measured: no Smarty 2.6.33 row (SMARTY2_DIR unset)';
const bySmarty = (page: string) => pagesFigures?.bySmarty.get(page) ?? NaN;
/** The floor (an empty template with the page's vars) against Smarty's whole page, when measured. */
const floorOf = (page: string) => {
  const x = pagesFigures?.floorBySmarty.get(page);
  return x === undefined ? '' : `; the floor, an empty template with the same vars: ${fx(x)}`;
};
const perPage = (m: Map<string, number>) =>
  [...m]
    .filter(([p]) => p !== 'geometric mean')
    .map(([p, x]) => `${p} ${fx(x)}`)
    .join(', ');
/** The endpoints of one variant that have a ratio to the plain server. */
const compared = (figures: typeof serveFigures) => [...figures].filter(([, e]) => Number.isFinite(e.timesPlain));
const endpoints = compared(serveFigures);
const news = serveFigures.get('news')?.ms ?? NaN;
const inChildren = readServe(servePart, 'processes');
const childNews = inChildren.get('news')?.ms;
const childEndpoints = compared(inChildren);
const timesPlain = (list: typeof endpoints) => list.map(([n, e]) => `${n} ${e.timesPlain}x`).join(', ');
const issue35Targets: Target[] = [
  {
    what: 'goal 1: the list page, whole request in-process (workers: 0) vs Smarty 2.6.33 on PHP 8.2 (OPcache)',
    measured: bySmarty('list'),
    unit: 'x',
    target: 1,
    shown: pagesFigures ? `${fx(bySmarty('list'))}${floorOf('list')}` : noSmarty,
    times: 'CPU per render, the same page and data, outputs equal (bench/pages.ts)',
  },
  {
    what: 'goal 2: a burst with 2 workers vs in-process (wall per render, 8 in flight)',
    measured: ratio('sc.engine.w2.burst', 'sc.engine.w0.burst', 'wallUs'),
    unit: 'x',
    target: 0.75,
    shown: fx(ratio('sc.engine.w2.burst', 'sc.engine.w0.burst', 'wallUs')),
    times: 'wall per render, 8 renders in flight over 16 tenants',
  },
  {
    what: 'goal 2: CPU per render with 2 workers vs in-process',
    measured: ratio('sc.engine.w2', 'sc.engine.w0', 'cpuUs'),
    unit: 'x',
    target: 1.3,
    shown: fx(ratio('sc.engine.w2', 'sc.engine.w0', 'cpuUs')),
    times: 'CPU of the engine process and its workers, renders awaited one at a time',
  },
  {
    what: 'goal 3: `news` on SQLite, server CPU per request',
    measured: news,
    unit: 'ms',
    target: 1.5,
    shown: Number.isFinite(news)
      ? `${news} ms${childNews === undefined ? '' : `; under \`--processes 2\`, isolates in the children: ${childNews} ms`}`
      : 'not measured: no `news` line from bench/serve.ts',
    times:
      "the sample site's `news` endpoint through `smartcage serve --site`, the status on its default (one child under a primary, isolates in the child, D371) (bench/serve.ts rps); PostgreSQL: bench/README.md",
  },
  {
    what: 'goal 3: the endpoint furthest from plain node:http + node:sqlite (CPU per request)',
    measured: endpoints.length ? Math.max(...endpoints.map(([, e]) => e.timesPlain)) : NaN,
    unit: 'x',
    target: 3,
    shown: endpoints.length
      ? `${timesPlain(endpoints)}${childEndpoints.length ? `; under \`--processes 2\`: ${timesPlain(childEndpoints)}` : ''}`
      : 'not measured: no endpoint lines from bench/serve.ts',
    times: 'server CPU per request of each endpoint against the plain server of the same query and JSON',
  },
  {
    what: 'goal 4: RSS per warm tenant in-process (workers: 0)',
    measured: num(st.memory['w0.rssPerTenantKB']),
    unit: 'KB',
    target: 2560,
    shown: `${st.memory['w0.rssPerTenantKB']} KB, an isolate each (the default)`,
    times: `RSS growth / ${st.memory.tenants} tenants, 20 renders each`,
  },
  {
    what: 'goal 4, opt-in (D342): RSS per warm tenant, tenants of one owner sharing isolates (workers: 0, `pool.tenantsPerIsolate` 32)',
    measured: num(st.memory['w0shared.rssPerTenantKB']),
    unit: 'KB',
    target: 2560,
    shown: `${st.memory['w0shared.rssPerTenantKB']} KB, a context each`,
    times: `RSS growth / ${st.memory.tenants} tenants of one isolate group, 20 renders each`,
  },
  {
    what: 'goal 4: a cold tenant with a warm spare ready (workers: 0)',
    measured: num(st.cold['w0.coldTenantWallUs']),
    unit: 'µs',
    target: 2000,
    shown: `${st.cold['w0.coldTenantWallUs']} µs wall; sharing isolates (D342), a warm context ready: ${st.cold['w0shared.coldTenantWallUs']} µs`,
    times: 'engine.render for a new tenant, arrivals 250 ms apart',
  },
  {
    what: 'goal 5: the five pages vs Smarty 2.6.33, geometric mean',
    measured: bySmarty('geometric mean'),
    unit: 'x',
    target: 1,
    shown: pagesFigures
      ? `${fx(bySmarty('geometric mean'))} (${perPage(pagesFigures.bySmarty)})${floorOf('geometric mean')}${pagesFigures.tenantsLabel ? `; ${pagesFigures.tenantsLabel} in turn: ${fx(pagesFigures.tenantsBySmarty.get('geometric mean') ?? NaN)}` : ''}${pagesFigures.sharedLabel ? `, ${pagesFigures.sharedLabel} (D342): ${fx(pagesFigures.sharedBySmarty.get('geometric mean') ?? NaN)}` : ''}`
      : noSmarty,
    times:
      'CPU per render of each page, one warm tenant; the many-tenants figure is what a host of many sites sees (D315)',
  },
];

const lowerIsBetter = (t: Target) => !t.what.startsWith('throughput');
const met = (t: Target) => (lowerIsBetter(t) ? t.measured <= t.target : t.measured >= t.target);
const status = (t: Target) => (!Number.isFinite(t.measured) ? 'not measured' : met(t) ? 'met' : '**MISSED**');
const targetRow = (t: Target) =>
  `| ${t.what} | ${t.shown} | ${lowerIsBetter(t) ? '≤' : '≥'} ${t.target}${t.unit === 'x' ? 'x' : ` ${t.unit}`} | ${status(t)} | ${t.times} |`;
const targetRows = targets.map(targetRow);

const stageRows = Object.entries(stages).flatMap(([stage, figs]) =>
  Object.entries(figs).map(([k, v]) => `| ${stage} | ${k} | ${v} |`),
);

const sh = (cmd: string) => {
  try {
    return execSync(cmd, { encoding: 'utf8' }).trim();
  } catch {
    return '?';
  }
};
const machine = [
  `- date: ${new Date().toISOString()}`,
  `- nproc: ${sh('nproc')}; CPU: ${sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").trim()}`,
  `- memory (free -h): ${sh('free -h | awk \'/Mem:/ {print $2" total, "$7" available"}\'')}`,
  `- load average at the end: ${sh('cut -d" " -f1-3 /proc/loadavg')} (the machine is shared: read absolute numbers loosely, ratios within a round are steadier)`,
  `- node ${process.version} (V8 ${process.versions.v8}); isolated-vm ${sh('node -p "require(\'isolated-vm/package.json\').version"')}`,
  `- smartcage: ${fromSrc ? 'src/ through tsx (--src)' : 'src/ bundled by esbuild into bench/.build/ (as shipped)'}`,
  `- run: ${quick ? 'quick (--quick)' : 'full'}, ${ROUNDS} interleaved rounds of ${SAMPLE_MS} ms samples, ${Math.round((Date.now() - started) / 1000)} s in all`,
];

const WHAT = `
- **Method.** Every subject lives in a benchmark process of its own (\`bench/lib/child.ts\`; engines never share a V8 heap: finding F1),
  started with \`--no-node-snapshot --expose-gc\`, TZ=UTC. Only one process runs at a time. Each subject is warmed up and given a
  batch size (about 5 ms per batch); a sample is a garbage collection, then whole batches for the sample time. Rounds are
  interleaved with the order rotated. Data: \`bench/data/generate.ts\` (deterministic). Templates: \`bench/templates/\`.
  Every engine gets the same HTML escaping (\`&#039;\` for \`'\`, as PHP) and UTC dates, so outputs are byte-equal.
- **(a) sc.inIsolate**: \`bench/lib/harness.ts\` builds an isolate as IsolateHost does (runtime bundle, bootstrap and lockdown,
  \`compile()\` output defined). Before the bootstrap it wraps the template's render function so that one
  \`smartcage.render()\` call runs it N times on the same scope and render state; only the summed length comes out. So this
  times the compiled code and the runtime it calls, vars resident (converted to PHP values once per N renders).
  **plain.inIsolate** runs the hand-written function N times in the same isolate on the same (plain) data; the target (a) is
  the ratio of the two.
- **sc.call.resident**: one \`applySync\` per render of \`smartcage.render\` with the request object already in the isolate
  (so per render: vars converted to PHP values, RenderState built, render, 31 KB string copied out).
- **sc.call.copy / plain.call.copy**: one \`applySync\` per render with \`new ExternalCopy(request).copyInto()\`, a 1000 ms
  timeout and the result copied out (the anchors' "realistic request"); **sc.call.copy.async** and **plain.call.copy.async** the
  same with \`await apply()\`: the hand-written one is the floor of a whole request, which must start with the async API.
- **(b) sc.engine.w0 / w1 / w2**: \`engine.render(source, {vars, identity})\` awaited one at a time, workers 0 (isolate in the
  process), 1 and 2 (sandbox worker processes: CPU includes the workers', from /proc). **.burst**: the same engine with 8
  renders in flight, spread over 16 tenants (a tenant renders one at a time); wall per render is how fast a burst is served.
- **(c) compile**: \`compile()\` of a never-seen source (the page plus a unique comment), warm process; median of single
  compiles, and a batch average; the first compile in a fresh process; generated code size vs the hand-written function.
- **(d) first**: \`engine.render\` of a never-seen source in a tenant that already rendered (live context): compile +
  script compile in the isolate + vars in + first (interpreted) render + output out. Parts timed separately in a bench isolate.
- **(e) cold**: \`engine.render\` for a tenant never seen (template already compiled). Each process keeps a warm spare
  isolate per memory class (runtime, bootstrap, lockdown and one built-in render done in the background:
  src/sandbox/warmup.ts), so a new tenant pays for template, vars and first render; arrivals 250 ms apart find it ready,
  back-to-back arrivals (the second figure) outrun it. The parts of building an isolate from nothing are timed separately.
- **(f) bridge**: a template with 20 \`{assign_globals key=... value=...}\` (a host plugin, fake request id) against the same
  with 20 \`{assign}\`; per-call difference. workers 0: \`applySyncPromise\` from the async render; workers 1: also IPC to the host.
- **(g) copyin**: the empty template rendered with the page's vars and without (one sync call each): per-render cost of
  vars as plain data (ExternalCopy + conversion to PHP values), as JSON text built per render, as cached JSON text; and the
  host-side \`new ExternalCopy(request)\` alone.
- **(h) memory**: K tenants render the page 20 times each; RSS growth of the process owning the isolates / K (after a
  baseline tenant, gc in the host). Beside it, the floor: K bare isolates
  that each run the hand-written function 20 times through the async \`apply\`, the same vars copied in and the output out.
- **(i) throughput**: \`createEngine({workers: 2})\`, 4 tenants, 8 renders in flight for a fixed time; renders/s, CPU per
  render (host + workers), cores busy; the same with 1 worker and with workers: 0 (each tenant's isolate in the process,
  renders on isolated-vm's threads). Compared with one host thread of the hand-written function.
`;

const resultsFile = quick
  ? new URL('../test-artifacts/bench-quick.md', import.meta.url)
  : new URL('./RESULTS.md', import.meta.url);
const md = `# Benchmark results (${quick ? 'a quick run, written by `npm run bench -- --quick`; bench/RESULTS.md holds the last full run' : 'bench/RESULTS.md, written by `npm run bench`'})

## Machine
${machine.join('\n')}

## Targets (issue 35: faster than the PHP engine it replaces), measured in this run

| target | measured | target | status | what is timed |
|---|---|---|---|---|
${issue35Targets.map(targetRow).join('\n')}

## Targets (issue 18: worker processes), measured as ratios in this run

| target | measured | target | status | what is timed |
|---|---|---|---|---|
${workerTargets.map(targetRow).join('\n')}

## Targets (issue 5), measured as ratios in this run

| target | measured | target | status | what is timed |
|---|---|---|---|---|
${targetRows.join('\n')}

## Render throughput, the page (100 items, ${expected.length} characters), every output byte-equal

Per-render medians over ${ROUNDS} rounds; ratios are taken against the hand-written function in the
same round (per round, then the median). CPU is the primary clock; with workers it includes
the worker processes' CPU.

| subject | version | µs/render wall | µs CPU/render | renders/s (wall) | × hand-written, CPU | × hand-written, wall |
|---|---|---:|---:|---:|---:|---:|
${renderRows.join('\n')}

## Five pages against Smarty 2.6.33 (issue 35; \`npm run bench:pages\`)

${pagesPart}

## Constructs against Smarty 2.6.33 (issue 35; \`npm run bench:constructs\`)

${constructsPart}

## Serve (issue 31; \`npm run bench:serve -- rps thousand\`, the sample site's endpoints against a plain node:http server)

\`\`\`
${servePart}
\`\`\`

## Stages

| stage | figure | value |
|---|---|---:|
${stageRows.join('\n')}

## What each row times
${WHAT}
`;
mkdirSync(new URL('../test-artifacts/', import.meta.url), { recursive: true });
writeFileSync(resultsFile, md);

const printTarget = (t: Target) =>
  console.log(
    `  ${status(t).replace(/\*/g, '').padEnd(6)}  ${t.what}: ${t.shown} (target ${lowerIsBetter(t) ? '<=' : '>='} ${t.target}${t.unit === 'x' ? 'x' : ' ' + t.unit})`,
  );
console.log('\nsmartcage benchmark: targets (issue 35, against Smarty 2.6.33 and plain node:http)\n');
issue35Targets.forEach(printTarget);
console.log('\nsmartcage benchmark: targets (issue 18, worker processes)\n');
workerTargets.forEach(printTarget);
console.log('\nsmartcage benchmark: targets (issue 5)\n');
targets.forEach(printTarget);
console.log('\nrender throughput (median µs per render; × hand-written, CPU)\n');
for (const s of samples.keys())
  console.log(
    `  ${s.padEnd(20)} ${f1(median(perOp(s, 'wallUs'))).padStart(7)} µs wall ${f1(median(perOp(s, 'cpuUs'))).padStart(7)} µs CPU  ${fx(ratio(s, 'plain', 'cpuUs')).padStart(7)}`,
  );
console.log(`\npages\n\n${pagesPart}\n\nconstructs\n\n${constructsPart}\n\nserve\n\n${servePart}`);
console.log('\nstages\n');
for (const [stage, figs] of Object.entries(stages))
  console.log(
    `  ${stage}: ${Object.entries(figs)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}`,
  );
console.log(`\nwrote ${fileURLToPath(resultsFile)} (${Math.round((Date.now() - started) / 1000)} s)`);
