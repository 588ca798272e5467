/**
 * How `smartcage serve` stops: the first SIGTERM or SIGINT (or a stop its cluster primary sends,
 * processes.ts) drains the server within the drain timeout (listen.ts); a second one stops at
 * once. What the process then exits with is the CLI's (src/cli/commands/serve.ts): 0 when every
 * request finished, 5 when some were cut (the deadline passed, or a second signal).
 */
import type { DrainResult, ServeServer } from './listen.js';

export type StopRequest = 'drain' | 'now';

/**
 * Resolves when the server has stopped: after the drain, or at once on a second request.
 * `requests` may add a source of stop requests besides the signals (the cluster's messages).
 */
export function untilStopped(s: ServeServer, drainMs: number, requests?: (stop: (kind: StopRequest) => void) => void): Promise<DrainResult> {
  return new Promise((done) => {
    let draining = false;
    const stop = (kind: StopRequest) => {
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
    const onSignal = () => stop('drain');
    const off = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    requests?.(stop);
  });
}
