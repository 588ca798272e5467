/**
 * A batch run's progress as its worker sees it: the host calls its render has made so far and the
 * plugin of the last, read from the engine's `smartcage:host-call` channel (src/diagnostics.ts),
 * so a template reports progress by working ({sleep}, {fetch_url}, {write_file}...) and needs no
 * tag of its own. The heartbeat writes it to the attempt's history row (history.ts).
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { HOST_CALL_CHANNEL, type HostCallEvent } from '../../index.js';

interface Count {
  calls: number;
  last: string;
}

/** The batch renders of this process being watched, by request id. */
const watched = new Map<string, Count>();
let subscribed = false;

function onStart(message: unknown): void {
  const e = message as HostCallEvent;
  const c = watched.get(e.requestId);
  if (c) {
    c.calls++;
    c.last = e.plugin;
  }
}

/** Counts the host calls of the render of `requestId` until `stop()`; `read()` says how far it got. */
export function watchProgress(requestId: string): { read(): string | null; stop(): void } {
  if (!subscribed) {
    // Subscribed once per process and kept: observeHostCalls asks at each render whether anyone listens.
    const noop = () => {};
    tracingChannel(HOST_CALL_CHANNEL).subscribe({
      start: onStart,
      end: noop,
      asyncStart: noop,
      asyncEnd: noop,
      error: noop,
    });
    subscribed = true;
  }
  const count: Count = { calls: 0, last: '' };
  watched.set(requestId, count);
  return {
    read: () => (count.calls === 0 ? null : `${count.calls} host calls, the last {${count.last}}`),
    stop: () => {
      if (watched.get(requestId) === count) watched.delete(requestId);
    },
  };
}
