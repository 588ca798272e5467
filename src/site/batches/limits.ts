/**
 * The limits of a site's batch runs (site.json `batch_limits`), apart from the web's: a page
 * render must answer in seconds, a batch may work for hours. What stays bounded is what costs the
 * host: CPU time of template code (host calls and sleeps do not count), the heap's memory class,
 * and host calls (one per BATCH_MS_PER_HOST_CALL of wall time). The wall time and the sleep budget
 * grow together, so a batch that waits in {sleep} between pieces of work may run as long as its
 * wall allows. docs/limits.md "Batches" gives the measurements behind the defaults (D175).
 *
 * `wall` is written `90s`, `45m`, `2h` (or `wall_ms`, milliseconds); `cpu_ms` milliseconds;
 * `memory` `128M`, `256M`, `512M` or `768M`.
 */
import type { SandboxLimits } from '../../index.js';

type MemoryClass = 128 | 256 | 512 | 768;

export interface BatchLimits {
  wallMs: number;
  cpuMs: number;
  memoryMB: MemoryClass;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = { wallMs: 3_600_000, cpuMs: 60_000, memoryMB: 128 };
/** The longest wall a site may give its batches (a day: below Node's 24.8-day timer limit by far). */
export const MAX_BATCH_WALL_MS = 24 * 3_600_000;
/** The most CPU time a site may give one batch run. */
export const MAX_BATCH_CPU_MS = 3_600_000;
/** A batch run may make one host call per this much of its wall time (an hour: 360,000 calls). */
const BATCH_MS_PER_HOST_CALL = 10;

const MEMORY: Readonly<Record<string, MemoryClass>> = { '128M': 128, '256M': 256, '512M': 512, '768M': 768 };
const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000 };
const KEYS: ReadonlySet<string> = new Set(['wall', 'wall_ms', 'cpu_ms', 'memory']);

function wallOf(v: Record<string, unknown>): number | string {
  if (v.wall !== undefined && v.wall_ms !== undefined) return '"wall" or "wall_ms", not both';
  if (v.wall_ms !== undefined) return typeof v.wall_ms === 'number' ? v.wall_ms : '"wall_ms" must be a number';
  if (v.wall === undefined) return DEFAULT_BATCH_LIMITS.wallMs;
  const m = typeof v.wall === 'string' ? /^([1-9][0-9]{0,5})([smh])$/.exec(v.wall) : null;
  return m ? Number(m[1]) * UNIT_MS[m[2]!]! : '"wall" is a duration like "90s", "45m" or "2h"';
}

/** site.json `batch_limits` with its defaults filled in, or what is wrong with it (one line). */
export function parseBatchLimits(v: unknown): BatchLimits | string {
  if (v === undefined) return DEFAULT_BATCH_LIMITS;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'must be an object';
  const o = v as Record<string, unknown>;
  const unknown = Object.keys(o).find((k) => !KEYS.has(k));
  if (unknown !== undefined) return `unknown key "${unknown}" (known: ${[...KEYS].join(', ')})`;
  const wallMs = wallOf(o);
  if (typeof wallMs === 'string') return wallMs;
  if (!Number.isInteger(wallMs) || wallMs < 1000 || wallMs > MAX_BATCH_WALL_MS)
    return `the wall time must be 1 s to ${MAX_BATCH_WALL_MS / 3_600_000} h`;
  const cpuMs = o.cpu_ms ?? DEFAULT_BATCH_LIMITS.cpuMs;
  if (!Number.isInteger(cpuMs) || (cpuMs as number) < 100 || (cpuMs as number) > MAX_BATCH_CPU_MS)
    return `"cpu_ms" must be an integer from 100 to ${MAX_BATCH_CPU_MS}`;
  const memoryMB = o.memory === undefined ? DEFAULT_BATCH_LIMITS.memoryMB : MEMORY[String(o.memory)];
  if (memoryMB === undefined) return `"memory" is one of ${Object.keys(MEMORY).join(', ')}`;
  return { wallMs, cpuMs: cpuMs as number, memoryMB };
}

/** The sandbox limits of a batch render under `l` (the rest are the engine's). */
export function batchSandboxLimits(l: BatchLimits): Partial<SandboxLimits> {
  return {
    wallMs: l.wallMs,
    cpuMs: l.cpuMs,
    maxSleepMs: l.wallMs,
    maxHostCalls: Math.max(1000, Math.ceil(l.wallMs / BATCH_MS_PER_HOST_CALL)),
  };
}
