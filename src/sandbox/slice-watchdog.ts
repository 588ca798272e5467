/**
 * The bound of every synchronous call into an isolate: the embedding process's slice (docs/decisions.md
 * D373) and a sandbox worker's whole render of a host-free template (D374). A watchdog
 * thread of our own (native/slice-watchdog, built by `npm run build` into dist/native/) in place
 * of isolated-vm's `timeout`, whose timer thread wakes once per call whether the call ended or
 * not (~20-25 µs of CPU per render on two busy cores). The watchdog arms one deadline for the one
 * synchronous call the process makes at a time and sleeps until the deadline armed now; past it,
 * it terminates the call as isolated-vm's timer does (an interrupt, then `TerminateExecution`
 * every ms), and `disarm` cancels a termination it left pending, so the isolate runs the next call.
 *
 * Each isolate is registered once (`watch`) by isolated-vm's NativeModule, which hands the native
 * side the isolate's `v8::Isolate*` and answers its id and a sentinel string. The sentinel is kept
 * here (a Reference to a string, which holds no context alive); V8 finalizes it when the isolate
 * is torn down, also when isolated-vm disposes it at its memory limit inside a call, and that
 * takes the isolate out of the watchdog under the lock it holds while it touches an isolate.
 *
 * Where the module is not built or does not load (another platform, no compiler), or with
 * SMARTCAGE_SLICE_WATCHDOG=0 (an A/B of the two bounds), `watch` answers null and the slice keeps
 * isolated-vm's timeout.
 */
import ivm from 'isolated-vm';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { CUT_AS_TIMEOUT } from './ivm-errors.js';

interface NativeWatchdog {
  arm(id: number, ms: number): boolean;
  disarm(): boolean;
  forget(id: number): void;
  wakes(): number;
}

/** An isolate the watchdog knows: its id there, and the sentinel that keeps it known. */
export interface WatchedIsolate {
  readonly id: number;
  readonly sentinel: ivm.Reference<unknown>;
}

/**
 * Where `npm run build` puts it, from where this module runs: the bundled CLI (dist/cli/), the
 * compiled sources (dist/src/sandbox/), or src/sandbox/ and bench/.build/ (tsx, the bench).
 */
const CANDIDATES = [
  '../native/slice_watchdog.node',
  '../../native/slice_watchdog.node',
  '../../dist/native/slice_watchdog.node',
];

let loaded: { native: NativeWatchdog; module: ivm.NativeModule } | null | undefined;

function load(): { native: NativeWatchdog; module: ivm.NativeModule } | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  if (process.env.SMARTCAGE_SLICE_WATCHDOG === '0') return null;
  for (const candidate of CANDIDATES) {
    const file = fileURLToPath(new URL(candidate, import.meta.url));
    if (!existsSync(file)) continue;
    try {
      const native = createRequire(import.meta.url)(file) as NativeWatchdog;
      loaded = { native, module: new ivm.NativeModule(file) };
      break;
    } catch {
      // Built for another Node or platform: isolated-vm's timeout stays the bound.
    }
  }
  return loaded;
}

/** Whether the slices of this process are bounded by the watchdog (else by isolated-vm's timeout). */
export function sliceWatchdogLoaded(): boolean {
  return load() !== null;
}

/** Registers the isolate of `context` with the watchdog; null where there is none. */
export async function watch(context: ivm.Context): Promise<WatchedIsolate | null> {
  const w = load();
  if (w === null) return null;
  let exports: ivm.Reference<Record<string, unknown>> | null = null;
  try {
    exports = (await w.module.create(context)) as ivm.Reference<Record<string, unknown>>;
    const id = (await exports.get('id')) as unknown;
    if (typeof id !== 'number') return null;
    const sentinel = (await exports.get('sentinel', { reference: true })) as ivm.Reference<unknown>;
    return { id, sentinel };
  } catch {
    return null;
  } finally {
    exports?.release();
  }
}

/** The call about to be made into `isolate` ends within `ms`; false if the watchdog no longer knows it. */
export function armSlice(isolate: WatchedIsolate, ms: number): boolean {
  return loaded?.native.arm(isolate.id, ms) ?? false;
}

/** The armed call has returned; true when the watchdog terminated it. */
export function disarmSlice(): boolean {
  return loaded?.native.disarm() ?? false;
}

/**
 * One synchronous call into `watched`'s isolate, bounded by the watchdog for `ms` where it knows
 * the isolate: `call(armed)` makes it, and passes isolated-vm its own timeout when not `armed`. A
 * call the watchdog terminated throws isolated-vm's timeout error (CUT_AS_TIMEOUT), whatever
 * isolated-vm threw for the termination (null).
 */
export function withWatchdog<T>(watched: WatchedIsolate | null, ms: number, call: (armed: boolean) => T): T {
  const armed = watched !== null && armSlice(watched, ms);
  let fired = false;
  try {
    try {
      return call(armed);
    } finally {
      if (armed) fired = disarmSlice();
    }
  } catch (e) {
    if (fired) throw new Error(CUT_AS_TIMEOUT, { cause: e });
    throw e;
  }
}

/** The host is done with the isolate (before it disposes it). */
export function unwatch(isolate: WatchedIsolate): void {
  loaded?.native.forget(isolate.id);
  try {
    isolate.sentinel.release();
  } catch {
    // An isolate isolated-vm has disposed already (its memory limit) has nothing left to release.
  }
}

/** How often the watchdog's thread has woken (bench/watchdog.ts). */
export function watchdogWakes(): number {
  return loaded?.native.wakes() ?? 0;
}
