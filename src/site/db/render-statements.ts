/**
 * Statements a render runs end with it (issue 33, decision D183): each backend asks here for the
 * signal of the render whose host call runs the statement (none for the CLI, the batch runner's
 * own bookkeeping or a server's startup), refuses to start a statement for a render that is over,
 * and bounds what one statement may give a render.
 *
 * PostgreSQL cancels a running statement when the signal fires (postgres.ts). SQLite (node:sqlite)
 * runs a statement synchronously on the thread that would deliver the signal, so nothing can stop
 * one once it runs: its work is bounded instead, by the LIMITs of the adapters' SQL and by
 * MAX_RENDER_ROWS, which both backends apply so that a statement behaves the same on each.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { BridgeError, currentRenderSignal } from '../../index.js';

/** At most this many rows from one statement of a render; past it the statement fails E_SIZE_LIMIT. */
export const MAX_RENDER_ROWS = 100_000;

/** The render signal that `detached` work started under, which its statements then do not take. */
const detachedFrom = new AsyncLocalStorage<AbortSignal | undefined>();

/**
 * Runs `fn` as work that outlives the render whose host call starts it: what a render leaves
 * recorded (an outbox row's outcome), or a long-lived resource made on first use (a site's batch
 * queue, whose callbacks would otherwise carry that render's signal for as long as they run).
 * Renders started from inside it (a batch run) still get their own signals.
 */
export function detached<T>(fn: () => T): T {
  return detachedFrom.run(currentRenderSignal(), fn);
}

/** The signal of the render this statement runs for, or undefined outside a render's host call. */
export function statementSignal(): AbortSignal | undefined {
  const signal = currentRenderSignal();
  return signal && signal === detachedFrom.getStore() ? undefined : signal;
}

/** The render's reason to stop (E_WALL_TIMEOUT or E_BRIDGE_CLOSED), as the statement's error. */
export function renderEnded(signal: AbortSignal): BridgeError {
  const code = signal.reason instanceof BridgeError ? signal.reason.code : 'E_BRIDGE_CLOSED';
  return new BridgeError(code, 'a database statement: the render ended before it was done');
}

/** Throws when the render is over: no statement starts for it. */
export function checkStatement(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw renderEnded(signal);
}

export function tooManyRows(): BridgeError {
  return new BridgeError('E_SIZE_LIMIT', `a database statement gave more than ${MAX_RENDER_ROWS} rows`);
}
