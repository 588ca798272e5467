/**
 * `npm run bench:cli -- [--runs N]`: the command line's fixed cost (issue 37: at most 0.5 s wall
 * for `smartcage render t.tpl --vars v.json` of `hello {$x}`), split into its parts, and the
 * re-render latency of `render --watch`. Uses the build (`npm run build` first), as a user runs it:
 * `node bin/smartcage.js` with the `node` of the PATH (outside node_modules), which hands over to
 * the project's Node 24 when it is older. Each row is the median of N runs (default 11); CPU is
 * user + system time of the command's processes (Linux /proc; "-" elsewhere).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'smartcage.js');
const BUNDLE = path.join(ROOT, 'dist', 'cli', 'main.js');
const ENGINE = path.join(ROOT, 'dist', 'src', 'engine.js');
const NODE24 = process.execPath;
const argv = process.argv.slice(2);
const RUNS = argv.includes('--runs') ? Number(argv[argv.indexOf('--runs') + 1]) : 11;
const TARGET_MS = 500;

if (!existsSync(BUNDLE)) throw new Error('dist/cli/main.js is missing: run `npm run build` first');

/** The `node` a user's shell finds: the first on PATH that is not a node_modules/.bin shim. */
function systemNode(): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir.includes('node_modules')) continue;
    const f = path.join(dir, 'node');
    if (existsSync(f)) return f;
  }
  return NODE24;
}

/** CPU ms of this process's waited-for children so far (utime + stime of those reaped), from /proc. */
function childrenCpuMs(): number | undefined {
  try {
    const s = readFileSync('/proc/self/stat', 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[13]) + Number(f[14])) * 10; // cutime, cstime; CLK_TCK 100
  } catch {
    return undefined;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Row {
  what: string;
  wallMs: number;
  cpuMs?: number;
}

/** Runs a command N times; wall from here, CPU of the process tree from /proc. */
function timed(what: string, cmd: string, args: string[], cwd: string, expect?: string): Row {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = childrenCpuMs();
    const t0 = performance.now();
    const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
    walls.push(performance.now() - t0);
    const c1 = childrenCpuMs();
    if (c0 !== undefined && c1 !== undefined) cpus.push(c1 - c0);
    if (r.status !== 0 || (expect !== undefined && r.stdout !== expect))
      throw new Error(`${what}: exit ${r.status}, output ${JSON.stringify(r.stdout)}: ${r.stderr}`);
  }
  return { what, wallMs: median(walls), ...(cpus.length ? { cpuMs: median(cpus) } : {}) };
}

/** Runs a probe script in Node 24 N times; it prints {wallMs, cpuMs} of the part it times. */
function probed(what: string, script: string): Row {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = spawnSync(NODE24, ['--no-node-snapshot', '--input-type=module', '-e', script], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${what}: ${r.stderr}`);
    const m = JSON.parse(r.stdout) as { wallMs: number; cpuMs: number };
    walls.push(m.wallMs);
    cpus.push(m.cpuMs);
  }
  return { what, wallMs: median(walls), cpuMs: median(cpus) };
}

const PROBE_HEAD = `import * as m from 'node:module'; m.enableCompileCache?.();
const c0 = process.cpuUsage(); const t0 = performance.now();`;
const PROBE_TAIL = `const c = process.cpuUsage(c0);
process.stdout.write(JSON.stringify({ wallMs: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 }));`;

/** `render --watch`: time from writing the template to its new output on standard output. */
async function watchLatency(dir: string): Promise<number[]> {
  const child = spawn(systemNode(), [BIN, 'render', 't.tpl', '--vars', 'v.json', '--watch'], { cwd: dir });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const until = async (ok: () => boolean, ms = 20_000) => {
    const t0 = performance.now();
    while (!ok()) {
      if (performance.now() - t0 > ms) throw new Error(`watch: timed out; stderr: ${err}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  };
  try {
    await until(() => err.includes('watching for changes'));
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // Apart from the last write by more than the file system's time stamp step.
      await new Promise((r) => setTimeout(r, 50));
      const mark = `edit ${i}`;
      const t0 = performance.now();
      writeFileSync(path.join(dir, 't.tpl'), `${mark} {$x}`);
      await until(() => out.includes(`${mark} world`));
      times.push(performance.now() - t0);
    }
    return times;
  } finally {
    child.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-bench-cli-'));
  try {
    writeFileSync(path.join(dir, 't.tpl'), 'hello {$x}');
    writeFileSync(path.join(dir, 'v.json'), '{"x":"world"}');
    const sys = systemNode();
    const sysVersion = spawnSync(sys, ['--version'], { encoding: 'utf8' }).stdout.trim();
    const handoff = sys !== NODE24 && Number(sysVersion.slice(1).split('.')[0]) < 24;
    // One unmeasured run fills V8's compile cache, as any earlier command would have.
    spawnSync(sys, [BIN, 'render', 't.tpl', '--vars', 'v.json'], { cwd: dir });
    const rows: Row[] = [];
    if (handoff) rows.push(timed(`start of the system Node ${sysVersion} (the wrapper; -e 0)`, sys, ['-e', '0'], dir));
    rows.push(timed('start of Node 24 --no-node-snapshot (-e 0)', NODE24, ['--no-node-snapshot', '-e', '0'], dir));
    rows.push(
      probed(
        "module loading (dist/cli/main.js and render's chunks, compile cache on)",
        `${PROBE_HEAD}\nawait (await import(${JSON.stringify(BUNDLE)})).loadCommand('render');\n${PROBE_TAIL}`,
      ),
    );
    rows.push(
      probed(
        'isolate start and render (createEngine workers: 0, first render)',
        `const { createEngine } = await import(${JSON.stringify(ENGINE)});\n${PROBE_HEAD}
const e = createEngine({ workers: 0 }); await e.render('hello {$x}', { vars: '{"x":"world"}' }); e.close();\n${PROBE_TAIL}`,
      ),
    );
    const total = timed(
      `total: node bin/smartcage.js render t.tpl --vars v.json (${handoff ? 'with' : 'no'} handoff)`,
      sys,
      [BIN, 'render', 't.tpl', '--vars', 'v.json'],
      dir,
      'hello world',
    );
    rows.push(total);
    const watch = await watchLatency(dir);
    const cpu = (r: Row) => (r.cpuMs === undefined ? '-' : r.cpuMs.toFixed(0));
    const lines = [
      `CLI fixed cost, median of ${RUNS} runs (${new Date().toISOString()}, load ${(await import('node:os')).loadavg()[0]!.toFixed(2)})`,
      '',
      '| part | wall ms | CPU ms |',
      '|---|---:|---:|',
      ...rows.map((r) => `| ${r.what} | ${r.wallMs.toFixed(0)} | ${cpu(r)} |`),
      `| render --watch: template written to new output (median; min ${Math.min(...watch).toFixed(0)}, max ${Math.max(...watch).toFixed(0)}) | ${median(watch).toFixed(0)} | - |`,
      '',
      `target: total <= ${TARGET_MS} ms wall: ${total.wallMs <= TARGET_MS ? 'met' : 'MISSED'} (${total.wallMs.toFixed(0)} ms)`,
    ];
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
