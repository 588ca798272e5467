/**
 * Clocks and sampling. CPU time is process.cpuUsage() of this process plus, for subjects that
 * run work in other processes (the engine's sandbox workers), their utime+stime from /proc
 * (10 ms ticks: samples are long enough for that to stay under a few percent).
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const TICK_US = 1e6 / 100; // CLK_TCK is 100 on Linux

function procCpuUs(pid: number): number {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_US;
  } catch {
    return 0;
  }
}

/** CPU µs used so far by this process and the given child processes. */
export function cpuUs(pids: readonly number[] = []): number {
  const u = process.cpuUsage();
  let t = u.user + u.system;
  for (const pid of pids) t += procCpuUs(pid);
  return t;
}

export function rssBytes(pid = process.pid): number {
  if (pid === process.pid) return process.memoryUsage().rss;
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

export const now = (): number => performance.now();

export function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

export interface Subject {
  /** The subject's output, checked against the hand-written function's before any timing. */
  output(): string | Promise<string>;
  /** Runs `n` renders. */
  run(n: number): void | Promise<void>;
  /** Other processes whose CPU time counts (sandbox workers). */
  pids?(): number[];
}

export interface Sample {
  ops: number;
  cpuUs: number;
  wallUs: number;
}

/** Ops per batch so that one batch takes about `targetMs` (the loop's own cost is then negligible). */
export async function calibrate(s: Subject, targetMs = 5): Promise<number> {
  let n = 1;
  for (;;) {
    const t0 = now();
    await s.run(n);
    const dt = now() - t0;
    if (dt >= targetMs || n >= 1 << 16) return Math.max(1, Math.round((n * targetMs) / Math.max(dt, 1e-3)));
    n *= dt < targetMs / 8 ? 8 : 2;
  }
}

/** One fixed-time sample: garbage collected first, then whole batches until `ms` have passed. */
export async function sample(s: Subject, batch: number, ms: number): Promise<Sample> {
  gc();
  const pids = s.pids?.() ?? [];
  const c0 = cpuUs(pids);
  const t0 = now();
  let ops = 0;
  do {
    await s.run(batch);
    ops += batch;
  } while (now() - t0 < ms);
  const wallUs = (now() - t0) * 1000;
  return { ops, cpuUs: cpuUs(pids) - c0, wallUs };
}

export function median(xs: number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Times `f` once: wall and CPU µs (this process and `pids`). */
export async function timeOnce<T>(
  f: () => T | Promise<T>,
  pids: readonly number[] = [],
): Promise<{ wallUs: number; cpuUs: number; value: T }> {
  const c0 = cpuUs(pids);
  const t0 = now();
  const value = await f();
  return { wallUs: (now() - t0) * 1000, cpuUs: cpuUs(pids) - c0, value };
}
