/**
 * `npm run bench:overshoot -- [--runs N] [--workers 0,2] [--cases CPU-01,...] [REV...]`: how far
 * past a 200 ms CPU budget `engine.render` of a runaway template ends (goal G3, docs/security.md),
 * for the code of each git revision (`.`, the working tree, when none is named), and the floor
 * under it: a bare isolated-vm isolate running `for(;;){}` under the same timeout, in this process.
 *
 * Every configuration (revision x workers) and the floor take turns, one render each, so a machine
 * whose load changes during the run weighs on all alike (the security harness runs its cases one
 * after the other). Prints per case and configuration p50/p90/p99/max of the overshoot, ms, and
 * for sandbox workers the CPU they spent per render (the render's own, at most the budget, plus
 * whatever a timeout costs them besides).
 */
import ivm from 'isolated-vm';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRevision } from './lib/build.js';

const HELP = `Usage: npm run bench:overshoot -- [--runs N] [--workers 0,2] [--cases CPU-01,CPU-02,CPU-03,RX-01] [REV...]

Renders each case's runaway template --runs times (default 50) under a 200 ms CPU budget with each
count of sandbox workers, for each git revision ("." is the working tree, the default), taking turns
with a bare isolated-vm timeout (the floor). Prints p50/p90/p99/max of the overshoot past 200 ms.`;

const BUDGET_MS = 200;
/** The templates of the security harness's G3 cases (src/security/cases/cpu.ts, rx.ts). */
const CASES: Record<string, { template: string; vars?: Record<string, unknown> }> = {
  'CPU-01': { template: '{section name=i loop=1000000000}{$smarty.section.i.index}{/section}' },
  'CPU-02': { template: '{section name=i loop=2000000000}{/section}' },
  'CPU-03': { template: '{section name=a loop=100000}{section name=b loop=100000}x{/section}{/section}' },
  'RX-01': {
    template: '{rcms_match var=m pattern="/(a+)+$/" subject=$s}{$m|@count}',
    vars: { s: `${'a'.repeat(40)}!` },
  },
};

interface Options {
  runs: number;
  workers: number[];
  cases: string[];
  revs: string[];
}

function parseArgs(argv: string[]): Options | null {
  const o: Options = { runs: 50, workers: [0, 2], cases: Object.keys(CASES), revs: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--help' || a === '-h') return null;
    else if (a === '--runs') o.runs = Math.max(1, Number(next()) || 0);
    else if (a === '--workers') o.workers = next().split(',').map(Number);
    else if (a === '--cases') o.cases = next().split(',');
    else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else o.revs.push(a);
  }
  for (const c of o.cases) if (!CASES[c]) throw new Error(`unknown case ${c} (${Object.keys(CASES).join(', ')})`);
  if (!o.revs.length) o.revs.push('.');
  return o;
}

/** CPU time of a process so far, ms (utime + stime from /proc, 10 ms ticks). */
function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function quantile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

type Engine = {
  render(t: string, o: object): Promise<unknown>;
  pids(): number[];
  close(): void;
};

interface Config {
  label: string;
  engine: Engine;
  workers: number;
  over: Map<string, number[]>;
  workerCpuMs: number;
  /** Renders that did not end with E_CPU_TIMEOUT, by case and what they ended with. */
  other: Map<string, number>;
}

async function main(): Promise<void> {
  let o: Options | null;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${HELP}`);
    process.exitCode = 2;
    return;
  }
  if (!o) return console.log(HELP);
  const scratch = mkdtempSync(join(tmpdir(), 'smartcage-overshoot-'));
  const configs: Config[] = [];
  try {
    for (const [i, rev] of o.revs.entries()) {
      const { createEngine } = (await import(buildRevision(rev, scratch, i))) as {
        createEngine(o: object): Engine;
      };
      for (const workers of o.workers) {
        const engine = createEngine({ workers, limits: { cpuMs: BUDGET_MS, wallMs: 10 * BUDGET_MS } });
        // Its workers started and the tenant's isolate made: the runs time the renders alone.
        await engine.render('{$x}', { vars: { x: 1 } }).catch(() => undefined);
        configs.push({
          label: `${rev} w${workers}`,
          engine,
          workers,
          over: new Map(),
          workerCpuMs: 0,
          other: new Map(),
        });
      }
    }
    const floor: number[] = [];
    const isolate = new ivm.Isolate({ memoryLimit: 128 });
    const context = await isolate.createContext();
    const loop = await isolate.compileScript('for(;;){}');
    for (let run = 0; run < o.runs; run++) {
      for (const name of o.cases) {
        const c = CASES[name]!;
        for (const k of configs) {
          const cpu0 = k.engine.pids().reduce((a, p) => a + processCpuMs(p), 0);
          const t0 = performance.now();
          const code = await k.engine.render(c.template, { name: 'attack.tpl', vars: c.vars ?? {} }).then(
            () => 'output',
            (e: { code?: string; message?: string }) =>
              e.code === 'E_CPU_TIMEOUT' ? e.code : `${e.code}: ${e.message}`,
          );
          const ms = performance.now() - t0;
          k.workerCpuMs += k.engine.pids().reduce((a, p) => a + processCpuMs(p), 0) - cpu0;
          if (code === 'E_CPU_TIMEOUT') k.over.set(name, [...(k.over.get(name) ?? []), ms - BUDGET_MS]);
          else k.other.set(`${name} ${code}`, (k.other.get(`${name} ${code}`) ?? 0) + 1);
        }
      }
      const t0 = performance.now();
      await loop.run(context, { timeout: BUDGET_MS }).catch(() => undefined);
      floor.push(performance.now() - t0 - BUDGET_MS);
    }
    isolate.dispose();
    const line = (label: string, v: number[] = []) => {
      if (!v.length) return `${label.padEnd(24)} (no E_CPU_TIMEOUT)`;
      v.sort((a, b) => a - b);
      const f = (p: number) => quantile(v, p).toFixed(1).padStart(7);
      return `${label.padEnd(24)} ${f(0.5)} ${f(0.9)} ${f(0.99)} ${f(1)}`;
    };
    console.log(
      `overshoot past ${BUDGET_MS} ms, ms (${o.runs} runs each)\n${''.padEnd(24)}     p50     p90     p99     max`,
    );
    console.log(line('floor: bare isolated-vm', floor));
    for (const name of o.cases) for (const k of configs) console.log(line(`${name} ${k.label}`, k.over.get(name)));
    for (const k of configs) for (const [what, n] of k.other) console.log(`${k.label} ${what}: ${n} renders`);
    for (const k of configs)
      if (k.workers > 0)
        console.log(`${k.label}: worker CPU per render ${(k.workerCpuMs / (o.runs * o.cases.length)).toFixed(0)} ms`);
  } finally {
    for (const k of configs) k.engine.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
