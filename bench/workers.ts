/**
 * `npm run bench:workers -- [--pages list,json,...] [--workers 0,1,2] [--rounds N] [--renders N]
 * [--burst N] [REV...]`: pages of the multi-page benchmark (bench/pages/pages.ts; the list page
 * by default) through `engine.render` with workers 0, 1 and 2, for the code of each git revision
 * (`.`, the working tree, when none is named), in one run: a process per sample, the
 * configurations taking turns (issue 35 goal 2).
 *
 * Each sample renders `--renders` pages one at a time (CPU per render: this process and its
 * sandbox workers, split) and then `--burst` pages BURST_IN_FLIGHT in flight over BURST_TENANTS
 * tenants (wall and CPU per render), after a warm-up that gives every tenant its isolate.
 * Each revision is bundled by esbuild as shipped (its src/ and runtime bundle, from `git archive`;
 * the working tree as it is).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRevision } from './lib/build.js';
import { pages, type Page } from './pages/pages.js';
import { runBench, UsageError, wholeNumber } from './lib/cli.js';

const HELP = `Usage: npm run bench:workers -- [--pages list,...] [--workers 0,1,2] [--rounds N] [--renders N] [--burst N] [REV...]

Pages of bench/pages (--pages, default list; all: list,mail,json,ja,section; and empty, no text
and no vars) through
engine.render with each count of sandbox workers, for each git revision ("." is the working
tree, the default), a process per sample, configurations in turn
(--rounds, default 3). A sample: --renders renders one at a time (default 2000) after a warm-up,
then --burst renders (default 2000) 8 in flight over 16 tenants. Prints the median per
configuration: CPU µs per render (this process + its workers), the burst's wall µs per render,
and the burst's waits per render (the main threads' voluntary context switches, all processes).`;

const BURST_IN_FLIGHT = 8;
const BURST_TENANTS = 16;

interface Options {
  pages: string[];
  workers: number[];
  rounds: number;
  renders: number;
  burst: number;
  revs: string[];
}

function parseArgs(argv: string[]): Options | null {
  const o: Options = { pages: ['list'], workers: [0, 1, 2], rounds: 3, renders: 2000, burst: 2000, revs: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--help' || a === '-h') return null;
    if (a === '--pages') {
      o.pages = (argv[++i] ?? '').split(',');
      continue;
    }
    if (a === '--workers') {
      o.workers = (argv[++i] ?? '').split(',').map(Number);
      if (!o.workers.length || o.workers.some((n) => !Number.isInteger(n) || n < 0))
        throw new UsageError('--workers takes counts like 0,1,2');
      continue;
    }
    const flag = /^--(rounds|renders|burst)$/.exec(a);
    if (flag) {
      const n = wholeNumber(a, argv[++i]);
      o[flag[1] as 'rounds' | 'renders' | 'burst'] = n;
    } else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
    else o.revs.push(a);
  }
  if (!o.revs.length) o.revs.push('.');
  return o;
}

/** The revision's engine bundled as shipped: `<dir>/bench/.build/index.js` beside its worker entry. */
const build = buildRevision;

/** One sample, in a process of its own: prints {seqHost, seqWorkers, burstWall, burstHost, burstWorkers} in µs per render. */
const SAMPLE_SCRIPT = `import { readFileSync } from 'node:fs';
const { createEngine } = await import(process.env.WB_BUNDLE);
const page = readFileSync(process.env.WB_PAGE, 'utf8');
const data = JSON.parse(readFileSync(process.env.WB_DATA, 'utf8'));
const workers = Number(process.env.WB_WORKERS);
const renders = Number(process.env.WB_RENDERS);
const burstN = Number(process.env.WB_BURST);
const e = createEngine({ workers, timezone: process.env.WB_TIMEZONE });
const expected = readFileSync(process.env.WB_EXPECTED, 'utf8');
const render = async (tenant) => {
  const r = await e.render(page, { name: process.env.WB_NAME, vars: data, identity: { tenant } });
  if (r.output !== expected) throw new Error('output differs: ' + JSON.stringify(r.error ?? r.output.slice(0, 200)));
};
const procCpu = (pid) => {
  const s = readFileSync('/proc/' + pid + '/stat', 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 1e4;
};
// The main thread's waits (a blocked read or poll): how often the event loop went to sleep.
const waits = (pid) => Number(/voluntary_ctxt_switches:\\s+(\\d+)/.exec(readFileSync('/proc/' + pid + '/status', 'utf8'))[1]);
const clocks = () => {
  const u = process.cpuUsage();
  return {
    wall: performance.now() * 1000, host: u.user + u.system, workers: e.pids().reduce((n, p) => n + procCpu(p), 0),
    waits: [process.pid, ...e.pids()].reduce((n, p) => n + waits(p), 0),
  };
};
const tenants = Array.from({ length: ${BURST_TENANTS} }, (_, i) => 'burst' + i);
let next = 0;
const burst = async (n) => {
  let started = 0;
  const lane = async () => {
    while (started < n) { started++; await render(tenants[next++ % tenants.length]); }
  };
  await Promise.all(Array.from({ length: Math.min(${BURST_IN_FLIGHT}, n) }, lane));
};
for (let i = 0; i < 300; i++) await render('seq');
await burst(${BURST_TENANTS} * 60);
const a = clocks();
for (let i = 0; i < renders; i++) await render('seq');
const b = clocks();
await burst(burstN);
const c = clocks();
e.close();
process.stdout.write(JSON.stringify({
  seqHost: (b.host - a.host) / renders, seqWorkers: (b.workers - a.workers) / renders,
  burstWall: (c.wall - b.wall) / burstN, burstHost: (c.host - b.host) / burstN, burstWorkers: (c.workers - b.workers) / burstN,
  burstWaits: (c.waits - b.waits) / burstN,
}));
process.exit(0);
`;

interface Sample {
  seqHost: number;
  seqWorkers: number;
  burstWall: number;
  burstHost: number;
  burstWorkers: number;
  burstWaits: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function main(opts: Options): Promise<number> {
  const scratch = mkdtempSync(join(tmpdir(), 'smartcage-workers-'));
  try {
    const bundles = opts.revs.map((rev, i) => {
      process.stderr.write(`building ${rev === '.' ? 'the working tree' : rev}...\n`);
      return build(rev, scratch, i);
    });
    // `empty`: no text and no vars, what a render costs whatever the page (the floor of a design).
    const all: Page[] = [
      ...pages(),
      { name: 'empty', template: '', eta: '', etaEscapes: false, vars: {}, timezone: 'UTC', hand: () => '' },
    ];
    const chosen = opts.pages.map((name) => {
      const p = all.find((x) => x.name === name);
      if (!p) throw new UsageError(`no page ${name} (${all.map((x) => x.name).join(', ')})`);
      const file = (ext: string, text: string) => {
        const f = join(scratch, `${name}.${ext}`);
        writeFileSync(f, text);
        return f;
      };
      // The vars go through JSON here; each sample checks every output against the page's own.
      return {
        page: p,
        env: {
          WB_PAGE: file('tpl', p.template),
          WB_NAME: `${name}.tpl`,
          WB_DATA: file('json', JSON.stringify(p.vars)),
          WB_EXPECTED: file('expected', p.hand(p.vars)),
          WB_TIMEZONE: p.timezone,
        },
      };
    });
    const script = join(scratch, 'sample.mjs');
    writeFileSync(script, SAMPLE_SCRIPT);
    const configs = chosen.flatMap((page) =>
      opts.revs.flatMap((rev, i) => opts.workers.map((workers) => ({ page, rev, bundle: bundles[i]!, workers }))),
    );
    const samples = new Map(configs.map((c) => [c, [] as Sample[]]));
    for (let round = 0; round < opts.rounds; round++) {
      for (const c of configs) {
        process.stderr.write(`round ${round + 1}/${opts.rounds}: ${c.page.page.name} ${c.rev} workers ${c.workers}\n`);
        const out = execFileSync(process.execPath, ['--no-node-snapshot', script], {
          env: {
            ...process.env,
            ...c.page.env,
            WB_BUNDLE: c.bundle,
            WB_WORKERS: String(c.workers),
            WB_RENDERS: String(opts.renders),
            WB_BURST: String(opts.burst),
          },
          encoding: 'utf8',
        });
        samples.get(c)!.push(JSON.parse(out) as Sample);
      }
    }
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    console.log(
      `engine.render, median of ${opts.rounds} processes per row (${opts.renders} renders one at a time, ` +
        `${opts.burst} in a burst of ${BURST_IN_FLIGHT} in flight over ${BURST_TENANTS} tenants); load ${load}`,
    );
    console.log(
      '| page | revision | workers | CPU/render (host + workers) | × workers 0 | burst wall/render | × workers 0 | burst CPU/render (host + workers) | burst waits/render |',
    );
    console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const c of configs) {
      const s = samples.get(c)!;
      const m = (f: (x: Sample) => number) => median(s.map(f));
      const base = configs.find((b) => b.page === c.page && b.rev === c.rev && b.workers === 0);
      const bs = base ? samples.get(base)! : null;
      const seq = m((x) => x.seqHost + x.seqWorkers);
      const wall = m((x) => x.burstWall);
      const ratio = (v: number, f: (x: Sample) => number) => (bs ? (v / median(bs.map(f))).toFixed(2) : '');
      console.log(
        `| ${c.page.page.name} | ${c.rev} | ${c.workers} | ${seq.toFixed(0)} (${m((x) => x.seqHost).toFixed(0)} + ${m((x) => x.seqWorkers).toFixed(0)}) | ` +
          `${ratio(seq, (x) => x.seqHost + x.seqWorkers)} | ${wall.toFixed(0)} | ${ratio(wall, (x) => x.burstWall)} | ` +
          `${m((x) => x.burstHost + x.burstWorkers).toFixed(0)} (${m((x) => x.burstHost).toFixed(0)} + ${m((x) => x.burstWorkers).toFixed(0)}) | ` +
          `${m((x) => x.burstWaits).toFixed(2)} |`,
      );
    }
    return 0;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

runBench('bench:workers', HELP, parseArgs, main);
