/**
 * The bounded synchronous render of the embedding process (`workers: 0`; docs/decisions.md D140,
 * which refines D30): a template that cannot call the host (`CompiledTemplate.hostFree`) and is
 * defined already first runs with isolated-vm's `applySync` and a timeout of the slice (default
 * 2 ms, `SandboxLimits.syncSliceMs`). Most renders end within it and save the two hops to the
 * isolate's thread and back (~100-200 µs of CPU). A render that does not is cut off, its work
 * discarded, and run again from the start with the async `apply` under what is left of its
 * budgets (src/sandbox/isolate-host.ts).
 *
 * The threat: a synchronous call holds the embedder's event loop while the isolate runs, so an
 * endless template would hold it for good (docs/security.md OPS-04). The mechanism that bounds it:
 * - the timeout is the slice, never more than `MAX_SLICE_MS`, and it is the only synchronous call
 *   the embedding process makes into an isolate (the worker's whole-render one, sync-render.ts, is
 *   imported by the worker entry alone);
 * - nothing from template code runs outside that timeout: the runtime's `render` never throws
 *   (a thrown object's `message` getter that never returns, IS-05, would otherwise run while
 *   isolated-vm converts the error, past its timeout) and answers plain data it built itself;
 * - a host-free render has no side effects outside its isolate (isolated-vm refuses the async
 *   path's host call from a synchronous call anyway), and a render whose every host plugin only
 *   reads, from an adapter that answers on this thread, has none either (D268: the slice's host
 *   function, open only during its slice and refused past its end), so a cut render can be run
 *   again, its reads repeated; the cut skips the
 *   runtime's `finally` blocks, so the state they restore is set again by the render that follows
 *   at once in the same context (src/runtime/isolate-entry.ts `afterCut`). Every cache the
 *   runtime keeps across renders is written whole, by one `set` (audited for this decision);
 * - vars larger than `MAX_SLICE_VARS_BYTES` are not sliced (copying them into the isolate happens
 *   on this thread, outside the timeout), and a render whose output is longer than
 *   `MAX_SLICE_OUTPUT_CHARS` is answered `overSlice` by the isolate before it is copied out and
 *   runs again asynchronously.
 *
 * - the render itself looks at the clock every 32 loop iterations, includes and {function} calls
 *   and stops at the slice's end (RenderState.tick, D187), on the thread that runs it: this does
 *   not wait for isolated-vm's timer thread.
 *
 * What it does not guarantee: what no loop check reaches, one uninterruptible native operation of
 * the template (a single modifier call on capped input) or a garbage collection the isolate
 * started within the slice, is bounded by a thread calling V8's TerminateExecution alone, so the
 * slice plus that thread's wake-up latency (on a quiet machine a fraction of a ms; on a 2-core
 * machine at load 26, 10-25 ms median, bench/README.md). That thread is the slice's watchdog
 * (src/sandbox/slice-watchdog.ts, D373) where it is built, else isolated-vm's timer thread.
 */
import type ivm from 'isolated-vm';
import { responseOf, type RenderAnswer, type RenderResponse } from '../protocol/render.js';
import { withWatchdog, type WatchedIsolate } from './slice-watchdog.js';

/** The longest slice a configuration can ask for, ms: a larger `syncSliceMs` is clamped to it. */
const MAX_SLICE_MS = 20;
/** Vars whose copy is larger are not sliced: the copy into the isolate runs on this thread. */
export const MAX_SLICE_VARS_BYTES = 1024 * 1024;
/** A sliced render with a longer output answers `overSlice` instead of copying it out on this thread. */
const MAX_SLICE_OUTPUT_CHARS = 1024 * 1024;

/** The render function of a live context (`smartcage.render` in the isolate). */
type RenderFunction = ivm.Reference<(...args: unknown[]) => RenderAnswer>;

/** A request as the runtime's `render` takes it: its JSON text, or its clone (src/sandbox/request.ts `requestText`, D299). */
export type RequestArg = string | ivm.Copy<unknown>;

export type SliceOutcome =
  | { done: true; response: RenderResponse; heldMs: number }
  /** Cut at the end of the slice, or answered `overSlice`: nothing of it is kept. */
  | { done: false; heldMs: number };

/**
 * How long the slices of this turn of the event loop have held it, ms. A render that ends in its
 * slice resolves in a microtask, so renders awaited one after another (a caller's loop, or several
 * tenants' loops) never gave the loop a turn while they ran: HH-SLICE measured a lag p99 of 1.1 s
 * with the slice on (11 ms off). Once this turn's slices have held the loop for one slice's
 * length (`sliceTurnLeft`), a render of an idle isolate waits for the next turn (`nextTurn`) and
 * takes its slice there, and a queued one goes asynchronously; `setImmediate` starts the next
 * turn's count at 0.
 */
const turn = { heldMs: 0, resetting: false };

function resetTurn(): void {
  turn.heldMs = 0;
  turn.resetting = false;
}

function heldFor(ms: number): void {
  turn.heldMs += ms;
  if (!turn.resetting) {
    turn.resetting = true;
    setImmediate(resetTurn);
  }
}

/** A promise resolved in the next turn of the event loop (after its I/O and timers). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Whether this turn of the event loop may still give a render a slice of `sliceMs`. */
export function sliceTurnLeft(sliceMs: number): boolean {
  return turn.heldMs < Math.min(sliceMs, MAX_SLICE_MS);
}

/** The slice's length for a configured `sliceMs`: whole ms, at least 1, at most MAX_SLICE_MS. */
export function sliceTimeoutMs(sliceMs: number): number {
  return Math.max(1, Math.min(Math.floor(sliceMs), MAX_SLICE_MS));
}

/**
 * One render in a synchronous slice of `sliceMs` (clamped to MAX_SLICE_MS). Errors other than
 * the slice's own timeout (the isolate disposed at its memory limit...) are thrown as the async
 * call throws them. `hostNow`: the render may call the host, which answers at once through the
 * slice's host function (D268); the caller has opened that function for this slice alone.
 * `t0`: performance.now() as the slice starts (the caller's, read for the slice's end, D300).
 */
export function renderInSlice(
  render: RenderFunction,
  name: string,
  request: RequestArg,
  sliceMs: number,
  hostNow: boolean,
  t0 = performance.now(),
  watched: WatchedIsolate | null = null,
): SliceOutcome {
  const timeout = sliceTimeoutMs(sliceMs);
  let heldMs = 0;
  // The watchdog's bound when it knows this isolate (D373), else isolated-vm's timeout. Armed for
  // twice the slice: the render cuts itself at the slice's end (D187), which leaves its context
  // clean, and the watchdog is the backstop for what no loop check reaches. At the slice's end
  // itself it won that race against the render's own cut (isolated-vm's timer thread wakes late),
  // and hostile renders beside a victim ran ~5x slower in HH-SLICE, terminated mid-render.
  try {
    // The render also cuts itself at the slice's end (D187); the bound is for what no loop check
    // reaches (one long native call), and its thread may wake late on a loaded machine.
    const answer = withWatchdog(watched, 2 * timeout, (armed) =>
      render.applySync(
        undefined,
        [name, request, MAX_SLICE_OUTPUT_CHARS, false, timeout, hostNow],
        armed ? { result: { copy: true } } : { timeout, result: { copy: true } },
      ),
    );
    const response = responseOf(answer as RenderAnswer);
    heldMs = performance.now() - t0;
    // A host call it could not answer at once that the render turned into its error: run it again too.
    return response.overSlice || response.error?.code === 'E_SLICE_YIELD'
      ? { done: false, heldMs }
      : { done: true, response, heldMs };
  } catch (e) {
    heldMs = performance.now() - t0;
    // isolated-vm's timeout, or the watchdog's termination thrown as one (withWatchdog).
    if (e instanceof Error && /^Script execution timed out/.test(e.message)) return { done: false, heldMs };
    throw e;
  } finally {
    heldFor(heldMs);
  }
}
