/**
 * `smartcage serve` as an operator runs it: the built bin/smartcage.js in a child process, its
 * address read from the line it prints, its process tree read from /proc. Shared by the CLI tests
 * that start a server (after `npm run build`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { BIN, ROOT } from './bin.js';
import { sourceCliArgs } from './cli.js';

export interface ServeProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT`, from the address line. */
  url: string;
  /** Everything it printed so far, stdout and stderr. */
  out(): string;
  /** What it printed on stdout so far (the address lines). */
  stdout(): string;
  /** What it printed on stderr so far (the log). */
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const ADDRESS = /http:\/\/127\.0\.0\.1:\d+/;

/**
 * Starts `smartcage serve ARGS` and waits (up to `waitMs`) for the line with its address on
 * stdout: the built bin/smartcage.js, or with `fromSources` src/cli/main.ts through tsx (no build
 * needed). The wait ends on the output or the exit itself, not on a poll.
 */
export async function startServe(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; waitMs?: number; fromSources?: boolean } = {},
): Promise<ServeProcess> {
  const argv = opts.fromSources ? sourceCliArgs(['serve', ...args]) : [BIN, 'serve', ...args];
  const child = spawn(process.execPath, argv, {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => ((out += d), (stdout += d)));
  child.stderr!.on('data', (d) => ((out += d), (stderr += d)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  const url = await new Promise<string | undefined>((resolve) => {
    const done = (found: string | undefined) => {
      clearTimeout(timer);
      child.stdout!.off('data', look);
      resolve(found);
    };
    const look = () => {
      const m = ADDRESS.exec(stdout);
      if (m) done(m[0]);
    };
    const timer = setTimeout(() => done(undefined), opts.waitMs ?? 30_000);
    child.stdout!.on('data', look);
    void exited.then(() => done(ADDRESS.exec(stdout)?.[0]));
  });
  if (!url) {
    child.kill('SIGKILL');
    throw new Error(`serve did not start:\n${out}`);
  }
  return { child, url, out: () => out, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Stops it (SIGTERM, then SIGKILL after `graceMs`) unless it has exited. */
export async function stopServe(s: ServeProcess, graceMs = 10_000): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  s.child.kill('SIGTERM');
  const t = setTimeout(() => s.child.kill('SIGKILL'), graceMs);
  await s.exited;
  clearTimeout(t);
}

export function alive(pid: number): boolean {
  try {
    // A zombie still answers kill 0; its state in /proc says it is gone.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The pids of every process below `pid` (children, theirs...), from /proc. */
export function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(name), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parentOf)
      if (parent === p) {
        out.push(child);
        walk(child);
      }
  };
  walk(pid);
  return out;
}

/** Waits until `cond()` holds, up to `ms`; whether it did. */
export async function eventually(cond: () => boolean | Promise<boolean>, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cond();
}
