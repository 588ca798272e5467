/**
 * The render's AbortSignal, part of the host plugin contract (docs/decisions.md D152): aborted when
 * the render ends for any reason (its answer is out, it failed, its CPU or wall deadline or memory
 * limit stopped it, its engine closed), and at the latest at its wall deadline. Work a plugin
 * starts on the host (zlib, archives, child processes, HTTP, a browser page) stops with it, so no
 * host work outlives the render that asked for it.
 *
 * Made on first use: a render that never calls the host pays nothing for it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { BridgeError } from './errors.js';
import type { HostAdapters } from './host.js';

export class RenderSignal {
  private controller: AbortController | null = null;
  private timer: NodeJS.Timeout | null = null;
  private ended = false;
  /** Why it ended, for a signal first asked for after the end. */
  private reason: BridgeError | null = null;

  constructor(private readonly deadlineAt: number) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      const controller = new AbortController();
      this.controller = controller;
      if (this.ended) controller.abort(this.reason ?? closed());
      else {
        // At the wall deadline the answer is E_WALL_TIMEOUT, whichever of the sandbox's watchdog and this comes first.
        this.timer = setTimeout(
          () =>
            controller.abort(
              new BridgeError('E_WALL_TIMEOUT', "the render's wall-clock time ran out during host work"),
            ),
          Math.max(0, this.deadlineAt - Date.now()),
        );
        this.timer.unref();
      }
    }
    return this.controller.signal;
  }

  /**
   * The render is over (or cancelled: `reason`): whatever its plugins still run on the host is
   * told to stop. The usual reason is made only when a signal exists to carry it: an Error
   * captures its stack, ~30 µs at every render's end under load, for a reason most renders never show.
   */
  end(reason?: BridgeError): void {
    if (this.ended) return;
    this.ended = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.controller) this.controller.abort(reason ?? closed());
    else this.reason = reason ?? null;
  }
}

/** Why a cancelled render's host work stopped (RenderOptions.signal; `smartcage batch cancel`). */
export function cancelled(): BridgeError {
  return new BridgeError('E_CANCELLED', 'the render was cancelled; its host work was stopped');
}

/**
 * The usual reason, at the end of every render that asked for its signal. Made without a stack:
 * it marks a state, not a place in the code, and capturing one cost ~20 µs of each such render.
 */
function closed(): BridgeError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new BridgeError('E_BRIDGE_CLOSED', 'the render ended; its host work was stopped');
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Why the render ended (E_CANCELLED, E_WALL_TIMEOUT, E_BRIDGE_CLOSED), or null while it runs. */
export function renderEnded(signal: AbortSignal): BridgeError | null {
  if (!signal.aborted) return null;
  return signal.reason instanceof BridgeError ? signal.reason : closed();
}

/** Throws, once the render has ended, why (E_WALL_TIMEOUT or E_BRIDGE_CLOSED): called between two pieces of host work. */
export function checkRender(signal: AbortSignal, what: string): void {
  if (!signal.aborted) return;
  const code = signal.reason instanceof BridgeError ? signal.reason.code : 'E_BRIDGE_CLOSED';
  throw new BridgeError(code, `${what}: the render ended before it was done`);
}

/**
 * The adapters as one render's plugins see them: every outbound request carries the render's
 * signal (with its own, if it has one), so no plugin can forget it.
 */
export function renderHost(host: HostAdapters, signal: () => AbortSignal): HostAdapters {
  const http = host.http;
  if (!http) return host;
  return {
    ...host,
    http: {
      fetch: (req) => http.fetch({ ...req, signal: req.signal ? AbortSignal.any([req.signal, signal()]) : signal() }),
    },
  };
}

const running = new AsyncLocalStorage<AbortSignal>();

/**
 * The signal of the render whose host call runs here, for adapters whose long work has no
 * signal argument (S3 requests, database statements), or undefined outside a host call: the
 * bridge runs every plugin inside `withRenderSignal`.
 */
export function currentRenderSignal(): AbortSignal | undefined {
  return running.getStore();
}

export function withRenderSignal<T>(signal: AbortSignal, fn: () => T): T {
  return running.run(signal, fn);
}
