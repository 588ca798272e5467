/**
 * Which renders took the synchronous slice, seen from outside: a host call answered on the async
 * path ends on the host-call channel with `asyncEnd` (tracePromise), one answered in the slice
 * never does (traceSync, src/diagnostics.ts). Whether the adapter's now face answered is no sign
 * of it, since reads answer at once on the async path too (D362). For OPS-17 and the tests of
 * the slice.
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { HOST_CALL_CHANNEL } from '../diagnostics.js';

export interface AsyncHostCalls {
  /** Host calls answered on the async path since the watch began or was reset. */
  readonly count: number;
  reset(): void;
  stop(): void;
}

export function watchAsyncHostCalls(): AsyncHostCalls {
  let count = 0;
  const none = () => {};
  const subscriber = { start: none, end: none, asyncStart: none, asyncEnd: () => void count++, error: none };
  const channel = tracingChannel(HOST_CALL_CHANNEL);
  channel.subscribe(subscriber);
  return {
    get count() {
      return count;
    },
    reset: () => void (count = 0),
    stop: () => void channel.unsubscribe(subscriber),
  };
}
