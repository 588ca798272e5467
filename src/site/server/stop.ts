/**
 * How `smartcage serve` stops: the first SIGTERM or SIGINT (or a stop its cluster primary sends,
 * processes.ts) drains the server within the drain timeout (listen.ts); a second one stops at
 * once. What the process then exits with is the CLI's (src/cli/commands/serve.ts): 0 when every
 * request finished, 5 when some were cut (the deadline passed, or a second signal).
 */
import type { DrainResult, ServeServer } from './listen.js';

export type StopRequest = 'drain' | 'now';

/**
 * Resolves when the server has stopped: after the drain, or at once on a second signal.
 * `requests` may add a source of stop requests besides the signals (the cluster primary's
 * messages): a drain it asks for while one runs is the same stop (a Ctrl-C reaches the child
 * both directly and through the primary), not a second one.
 */
export function untilStopped(
  s: ServeServer,
  drainMs: number,
  requests?: (stop: (kind: StopRequest, fromSignal: boolean) => void) => void,
): Promise<DrainResult> {
  return new Promise((done) => {
    let draining = false;
    const stop = (kind: StopRequest, fromSignal: boolean) => {
      if (draining && kind === 'drain' && !fromSignal) return;
      if (kind === 'now' || draining) {
        off();
        void s.close().then(() => done('cut'));
        return;
      }
      draining = true;
      void s.drain(drainMs).then((r) => {
        off();
        done(r);
      });
    };
    const onSignal = () => stop('drain', true);
    const off = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    requests?.(stop);
  });
}
