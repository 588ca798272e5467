/**
 * `npm run bench:ab -- REV [REV...]`: one row of the benchmark for the code of each git revision,
 * side by side. `.` is the working tree.
 * - `--row a` (the default): the page's compiled render inside an isolate, vars resident. One
 *   isolate per variant is not enough on this machine: two isolates with the same runtime
 *   measured up to 15 µs apart (of ~220). So each revision gets several isolates, the rounds go
 *   through all of them in turn, and the samples of a revision are pooled.
 * - `--row request`: the whole request, `engine.render` with workers 0, run from the revision's
 *   src/ through tsx in a process of its own per sample, the revisions taking turns.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generate } from './data/generate.js';
import { runBench, UsageError, wholeNumber } from './lib/cli.js';
import type { BenchIsolate } from './lib/harness.js';

const HELP = `Usage: npm run bench:ab -- [--row a|request] [--page NAME] [--isolates N] [--rounds N] [--renders N] REV [REV...]

Builds the runtime bundle of each revision (a git worktree per revision; "." is the working
tree) and times one row of npm run bench for each, with that revision's own code.
  --row a        the compiled render inside an isolate, vars resident (the default): N isolates
                 per revision (--isolates, default 3), rounds through all of them in turn
                 (--rounds, default 10), renders per sample (--renders, default 200)
  --row request  engine.render with workers 0 (vars in, output out), from the revision's src/
                 through tsx: one process per sample, revisions in turn (--rounds, default 10),
                 renders per sample after 500 to warm up (--renders, default 2000)
  --page NAME    the request row renders this page of npm run bench:pages instead of the list
                 page (mail, json, ja, section; the revision must have bench/pages/), or an
                 empty template: \`empty\` without vars (the fixed cost of a render),
                 \`empty-list\` with the list page's vars (their copy in)
Prints the median and lower quartile of each revision's samples, in CPU µs per render, and its
ratio to the first revision.

Exit status: 0 done, 2 wrong usage, 1 a build or a render failed.`;

interface Options {
  row: 'a' | 'request';
  /** The request row's page: null for the list page of bench/templates/. */
  page: string | null;
  isolates: number;
  rounds: number;
  renders: number;
  revs: string[];
}

function parseArgs(argv: string[]): Options | null {
  const o: Options = { row: 'a', page: null, isolates: 3, rounds: 10, renders: 0, revs: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--help' || a === '-h') return null;
    if (a === '--row') {
      const row = argv[++i];
      if (row !== 'a' && row !== 'request') throw new UsageError('--row takes a or request');
      o.row = row;
      continue;
    }
    if (a === '--page') {
      const page = argv[++i];
      if (!page || !/^[a-z-]+$/.test(page)) throw new UsageError('--page takes a page name of bench:pages');
      o.page = page === 'list' ? null : page;
      continue;
    }
    const flag = /^--(isolates|rounds|renders)$/.exec(a);
    if (flag) {
      const n = wholeNumber(a, argv[++i]);
      o[flag[1] as 'isolates' | 'rounds' | 'renders'] = n;
    } else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
    else o.revs.push(a);
  }
  if (o.revs.length === 0) throw new UsageError('name at least one revision');
  if (o.page !== null && o.row !== 'request') throw new UsageError('--page is for --row request');
  o.renders ||= o.row === 'a' ? 200 : 2000;
  return o;
}

const ROOT = resolve(new URL('..', import.meta.url).pathname);

// The harness compiles with the shipped build by default (bench/.build, made by run.ts); this
// script compiles each revision with its own compiler and needs only the harness's isolate.
process.env.BENCH_SRC ??= '1';
const harness = () => import('./lib/harness.js');

interface Built {
  rev: string;
  /** The revision's tree, its runtime bundle built (the working tree itself for "."). */
  dir: string;
}

/** A worktree of one revision, with its runtime bundle built, which both rows use. */
function build(rev: string, scratch: string, index: number): Built {
  let dir = ROOT;
  if (rev !== '.') {
    dir = join(scratch, `rev${index}`);
    execFileSync('git', ['worktree', 'add', '--detach', '--quiet', dir, rev], { cwd: ROOT, stdio: 'inherit' });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  }
  execFileSync(process.execPath, ['scripts/build-runtime.mjs'], { cwd: dir, stdio: 'inherit' });
  return { rev, dir };
}

/** The page compiled by the revision's own compiler. */
function compilePage(dir: string, page: string): string {
  const compileScript = `import { compile } from './src/compiler/index.ts';
    process.stdout.write(compile(process.env.AB_SOURCE, { name: 'page.tpl', id: 'page.tpl' }).code);`;
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', compileScript], {
    cwd: dir,
    env: { ...process.env, AB_SOURCE: page },
    encoding: 'utf8',
  });
}

/** Row (a): several isolates per revision, rounds through all of them, samples pooled. */
async function rowA(builds: Built[], opts: Options): Promise<Map<Built, number[]>> {
  const { BenchIsolate, PAGE_TPL } = await harness();
  const data = generate();
  const runtimes = new Map(
    builds.map((b) => [
      b,
      { bundle: readFileSync(join(b.dir, 'dist/runtime.bundle.js'), 'utf8'), code: compilePage(b.dir, PAGE_TPL) },
    ]),
  );
  const isolates: [Built, BenchIsolate][] = [];
  for (let k = 0; k < opts.isolates; k++) {
    for (const b of builds) {
      const { bundle, code } = runtimes.get(b)!;
      const iso = new BenchIsolate(128, bundle);
      iso.defineCode(code, 'page.tpl');
      iso.setResident(data);
      isolates.push([b, iso]);
    }
  }
  const samples = new Map<Built, number[]>(builds.map((b) => [b, []]));
  for (let round = 0; round < opts.rounds; round++) {
    progress(round, opts.rounds);
    for (const [b, iso] of isolates) {
      const loop = iso.fn('scLoop');
      loop.applySync(undefined, ['page.tpl', 20]);
      const c0 = process.cpuUsage();
      loop.applySync(undefined, ['page.tpl', opts.renders]);
      const c = process.cpuUsage(c0);
      samples.get(b)!.push((c.user + c.system) / opts.renders);
    }
  }
  progress(opts.rounds, opts.rounds);
  for (const [, iso] of isolates) iso.dispose();
  return samples;
}

/** What one sample of the request row runs, in the revision's tree: its own engine, page and data. */
const REQUEST_SCRIPT = `import { readFileSync } from 'node:fs';
const { createEngine } = await import(process.cwd() + '/src/index.ts');
let page, data, timezone = 'UTC';
if (process.env.AB_PAGE === 'empty' || process.env.AB_PAGE === 'empty-list') {
  // The fixed cost of a render: an empty template, without vars or with the list page's.
  page = '';
  if (process.env.AB_PAGE === 'empty-list') data = (await import(process.cwd() + '/bench/data/generate.ts')).generate();
} else if (process.env.AB_PAGE) {
  const { pages } = await import(process.cwd() + '/bench/pages/pages.ts');
  const p = pages().find((x) => x.name === process.env.AB_PAGE);
  if (!p) throw new Error('no page ' + process.env.AB_PAGE + ' in this revision');
  ({ template: page, vars: data, timezone } = p);
} else {
  const { generate } = await import(process.cwd() + '/bench/data/generate.ts');
  page = readFileSync('bench/templates/page.tpl', 'utf8');
  data = generate();
}
const e = createEngine({ workers: 0, timezone });
const render = () => e.render(page, { name: 'page.tpl', vars: data, identity: { tenant: 'ab' } });
for (let i = 0; i < 500; i++) await render();
const n = Number(process.env.AB_RENDERS);
const c0 = process.cpuUsage();
for (let i = 0; i < n; i++) await render();
const c = process.cpuUsage(c0);
e.close();
process.stdout.write(String((c.user + c.system) / n));
`;

/** The request row: a process per sample (so no revision warms another's), revisions in turn. */
function rowRequest(builds: Built[], opts: Options, scratch: string): Map<Built, number[]> {
  const script = join(scratch, 'request-sample.mts');
  writeFileSync(script, REQUEST_SCRIPT);
  const samples = new Map<Built, number[]>(builds.map((b) => [b, []]));
  for (let round = 0; round < opts.rounds; round++) {
    progress(round, opts.rounds);
    for (const b of builds) {
      const out = execFileSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', script], {
        cwd: b.dir,
        env: { ...process.env, AB_RENDERS: String(opts.renders), AB_PAGE: opts.page ?? '' },
        encoding: 'utf8',
      });
      samples.get(b)!.push(Number(out));
    }
  }
  progress(opts.rounds, opts.rounds);
  return samples;
}

function progress(done: number, of: number): void {
  if (!process.stderr.isTTY) return;
  process.stderr.write(done < of ? `\rround ${done + 1}/${of}` : '\n');
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
}

async function main(opts: Options): Promise<number> {
  const scratch = mkdtempSync(join(tmpdir(), 'smartcage-ab-'));
  try {
    const builds = opts.revs.map((rev, i) => {
      process.stderr.write(`building ${rev === '.' ? 'the working tree' : rev}...\n`);
      return build(rev, scratch, i);
    });
    const samples = opts.row === 'a' ? await rowA(builds, opts) : rowRequest(builds, opts, scratch);
    const first = quantile(
      samples.get(builds[0]!)!.sort((x, y) => x - y),
      0.5,
    );
    console.log(
      opts.row === 'a'
        ? `row (a), CPU µs per render: ${opts.isolates} isolates x ${opts.rounds} rounds x ${opts.renders} renders per revision`
        : `engine.render, workers 0, CPU µs per render (both threads): ${opts.rounds} processes x ${opts.renders} renders per revision`,
    );
    console.log('| revision | median | lower quartile | median / first |');
    console.log('|---|---:|---:|---:|');
    for (const b of builds) {
      const s = samples.get(b)!.sort((x, y) => x - y);
      const med = quantile(s, 0.5);
      console.log(`| ${b.rev} | ${med.toFixed(0)} | ${quantile(s, 0.25).toFixed(0)} | ${(med / first).toFixed(3)} |`);
    }
    return 0;
  } finally {
    opts.revs.forEach((rev, i) => {
      if (rev === '.') return;
      try {
        execFileSync('git', ['worktree', 'remove', '--force', join(scratch, `rev${i}`)], {
          cwd: ROOT,
          stdio: 'ignore',
        });
      } catch {
        // a build that failed before `git worktree add` left none
      }
    });
    rmSync(scratch, { recursive: true, force: true });
  }
}

runBench('bench:ab', HELP, parseArgs, main);
