/**
 * Host plugins that only read (docs/decisions.md D268): written once in steps, they answer on the
 * async path as every plugin does and, when their adapter has a now face (the local site's
 * node:sqlite), at once for a render in the synchronous slice of the embedding process, and at
 * once on the async path too whenever the face can answer (D362). Kept out
 * of plugin-contract.ts, which stays a leaf of types (test/host-bridge/contract.test.ts).
 */
import type { FunctionPlugin } from '../plugins/types.js';
import type { Value } from '../value/value.js';
import { BridgeError } from '../host-api/errors.js';
import { notNow, runLater, runNow, type SnapshotFace, type Steps } from '../host-api/now-or-later.js';
import type { BridgeCall, HostPlugin, HostResult, ReadRun } from './plugin-contract.js';

/** The now face of the adapter a plugin was handed, or undefined when it answers only later. */
export function nowFaceOf(adapter: unknown): object | undefined {
  const face = typeof adapter === 'object' && adapter !== null ? (adapter as { now?: unknown }).now : undefined;
  return typeof face === 'object' && face !== null ? face : undefined;
}

/**
 * A plugin that only reads: nothing it does outside its answer (no write, counter, mail, file,
 * sleep, request). It runs on the async path as `implement`'s do, and, when its adapter has a now
 * face, at once for a render in the synchronous slice, with the same body (docs/decisions.md D268);
 * on the async path it asks the now face first and its promises only when the face cannot answer.
 */
export function implementRead<const D extends FunctionPlugin & { host: string }>(
  declaration: D,
  body: ReadRun<D>,
): HostPlugin {
  const run = body as unknown as (
    attrs: Record<string, Value>,
    call: BridgeCall,
    reads: unknown,
    signal: AbortSignal,
  ) => Steps<HostResult>;
  /** The read on the adapter's now face, in one snapshot of its store; E_SLICE_YIELD if it cannot answer at once. */
  const answerNow = (attrs: Record<string, Value>, call: BridgeCall, face: object, signal: AbortSignal) => {
    // All the reads of one call in one snapshot of the store: one state, one lock (D361).
    const snapshot = (face as SnapshotFace).snapshot;
    if (!snapshot) return runNow(run(attrs, call, face, signal));
    return snapshot(() => runNow(run(attrs, call, face, signal)));
  };
  return {
    name: declaration.name,
    run(attrs, call, adapter, signal) {
      // A render off the slice (a sandbox worker's, one that can reach a write, one cut) reads at
      // once too when the store can (D362): its statements run on this thread either way, and one
      // snapshot is one state and one lock; the promises answer only what cannot be answered now.
      const face = nowFaceOf(adapter);
      if (face) {
        try {
          return Promise.resolve(answerNow(attrs, call, face, signal));
        } catch (e) {
          if (!(e instanceof BridgeError && e.code === 'E_SLICE_YIELD')) return Promise.reject(e);
        }
      }
      return runLater(run(attrs, call, adapter, signal));
    },
    runNow(attrs, call, adapter, signal) {
      const face = nowFaceOf(adapter);
      if (!face) throw notNow(`{${declaration.name}}: this host's adapter answers only later`);
      return answerNow(attrs, call, face, signal);
    },
  };
}
