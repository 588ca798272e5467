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
import type { BatchLimitsJson } from '../site-json.generated.js';

type MemoryClass = 128 | 256 | 512 | 768;

export interface BatchLimits {
  wallMs: number;
  cpuMs: number;
  memoryMB: MemoryClass;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = { wallMs: 3_600_000, cpuMs: 60_000, memoryMB: 128 };
/** The longest wall a site may give its batches (a day: below Node's 24.8-day timer limit by far; the schema's `wall_ms` maximum). */
export const MAX_BATCH_WALL_MS = 24 * 3_600_000;
/** The most CPU time a site may give one batch run (the schema's `cpu_ms` maximum; a test ties the two). */
export const MAX_BATCH_CPU_MS = 3_600_000;
/** A batch run may make one host call per this much of its wall time (an hour: 360,000 calls). */
const BATCH_MS_PER_HOST_CALL = 10;

const MEMORY: Readonly<Record<NonNullable<BatchLimitsJson['memory']>, MemoryClass>> = {
  '128M': 128,
  '256M': 256,
  '512M': 512,
  '768M': 768,
};
const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000 };

/**
 * site.json `batch_limits` with its defaults filled in, or what is wrong with it (one line). Its
 * keys and types are the schema's to check (schema/site.schema.json); what is left is what a
 * schema cannot say: one of `wall` and `wall_ms`, and the bounds of a duration.
 */
export function parseBatchLimits(v: BatchLimitsJson | undefined): BatchLimits | string {
  if (v === undefined) return DEFAULT_BATCH_LIMITS;
  if (v.wall !== undefined && v.wall_ms !== undefined) return '"wall" or "wall_ms", not both';
  const m = v.wall === undefined ? null : /^([1-9][0-9]{0,5})([smh])$/.exec(v.wall);
  if (v.wall !== undefined && !m) return '"wall" is a duration like "90s", "45m" or "2h"';
  const wallMs = m ? Number(m[1]) * UNIT_MS[m[2]!]! : (v.wall_ms ?? DEFAULT_BATCH_LIMITS.wallMs);
  if (wallMs < 1000 || wallMs > MAX_BATCH_WALL_MS)
    return `the wall time must be 1 s to ${MAX_BATCH_WALL_MS / 3_600_000} h`;
  return {
    wallMs,
    cpuMs: v.cpu_ms ?? DEFAULT_BATCH_LIMITS.cpuMs,
    memoryMB: v.memory === undefined ? DEFAULT_BATCH_LIMITS.memoryMB : MEMORY[v.memory],
  };
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
