/**
 * Reads written once and answered now or later (docs/decisions.md D268). A host plugin that only
 * reads, and an adapter whose store answers on the calling thread (the local site's node:sqlite),
 * can answer a render in the synchronous slice (src/sandbox/sync-slice.ts) at once; the same
 * plugin on an adapter that answers through a promise (PostgreSQL, an embedder's HTTP CMS) must
 * answer later. So the read is one generator function: where an `async` function would write
 * `await x`, it writes `yield* wait(x)`, and one of two drivers runs it:
 * - `runLater` awaits each step's promise, as the async function did (its rejection is thrown back
 *   into the generator, so `try`/`catch` and `finally` inside it work as with `await`);
 * - `runNow` hands each step's value straight back, and refuses a step that is a promise with
 *   E_SLICE_YIELD: the render in the slice is cut and runs again on the async path (D140), where
 *   `runLater` answers it. Typing keeps that rare (the now faces of the adapters return values,
 *   not promises); this is the check that holds when typing was got round.
 *
 * The same code on both paths: the row caps, the open rule, the signal checks are not copied.
 */
import { BridgeError } from './errors.js';

/** A read in steps: each yielded value is what an adapter answered, now (a value) or later (a promise). */
export type Steps<T> = Generator<unknown, T, unknown>;

/** A value, or a promise of it: what a read face answers. */
export type NowOrLater<T> = T | PromiseLike<T>;

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return (
    (typeof v === 'object' || typeof v === 'function') &&
    v !== null &&
    typeof (v as { then?: unknown }).then === 'function'
  );
}

/** `yield* wait(x)`: the value of `x`, once the driver has it (an `await` that also runs at once). */
export function* wait<T>(v: NowOrLater<T>): Steps<T> {
  return (yield v) as T;
}

/** Several reads at once: on the async path they overlap (Promise.all), on the now path they are values. */
export function* waitAll<const T extends readonly unknown[]>(
  values: T,
): Steps<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  type All = { -readonly [K in keyof T]: Awaited<T[K]> };
  if (!values.some(isThenable)) return [...values] as unknown as All;
  return (yield Promise.all(values)) as All;
}

/** Runs `steps` on the async path: each promise awaited, its rejection thrown back in. */
export async function runLater<T>(steps: Steps<T>): Promise<T> {
  let r = steps.next();
  while (!r.done) {
    let value: unknown;
    try {
      value = await r.value;
    } catch (e) {
      r = steps.throw(e);
      continue;
    }
    r = steps.next(value);
  }
  return r.value;
}

/**
 * Runs `steps` at once, on this thread. A step that is a promise is a face that answered later
 * after all: the read stops there (its `finally` blocks run) and E_SLICE_YIELD is thrown.
 */
export function runNow<T>(steps: Steps<T>): T {
  let r = steps.next();
  while (!r.done) {
    if (isThenable(r.value)) {
      // Whatever it was waiting for is not needed: a rejection of it is not this read's concern.
      Promise.resolve(r.value).catch(() => {});
      steps.return(undefined as T);
      throw notNow('a read answered through a promise');
    }
    r = steps.next(r.value);
  }
  return r.value;
}

/** A host call in the synchronous slice that cannot be answered at once: the render goes async. */
export function notNow(why: string): BridgeError {
  return new BridgeError('E_SLICE_YIELD', `${why}: the render runs again on the async path`);
}

/**
 * Runs `fn`, whose reads are a store's answers at once, as one read of the store (D361): SQLite
 * runs it in one read transaction, so the statements of one host call see one state of the
 * database and take its file lock once, not once each (8 statements of the `news` endpoint: 38 µs
 * of locking and unlocking become 16). Reentrant: inside a snapshot it only runs `fn`. Throws
 * E_SLICE_YIELD (`notNow`) when a transaction holds the connection.
 */
export type Snapshot = <T>(fn: () => T) => T;

/** What a now face may carry beside its reads: the store's snapshot, for a host call of several reads. */
export interface SnapshotFace {
  readonly snapshot?: Snapshot;
}

/** Reads written in steps, by name: what a store writes once for both faces (src/site/adapters/content.ts). */
type StepReads = { readonly [name: string]: (...args: never[]) => Steps<unknown> };
/** What a read in steps answers. */
type Answered<F> = F extends (...args: never[]) => Steps<infer T> ? T : never;

/** An adapter's async face over reads in steps: each read run by `runLater`. */
export function laterFace<R extends StepReads>(
  reads: R,
): { [K in keyof R]: (...args: Parameters<R[K]>) => Promise<Answered<R[K]>> } {
  const face: Record<string, unknown> = {};
  for (const [name, read] of Object.entries(reads))
    face[name] = (...args: never[]) => runLater(read(...args) as Steps<unknown>);
  return face as { [K in keyof R]: (...args: Parameters<R[K]>) => Promise<Answered<R[K]>> };
}

/**
 * An adapter's now face over reads in steps: each read run by `runNow` (a step that is a promise
 * refused). It carries the store's `snapshot`, in which a host call runs all its reads
 * (read-plugin.ts, the one caller of now faces).
 */
export function nowFace<R extends StepReads>(
  reads: R,
  snapshot?: Snapshot,
): { [K in keyof R]: (...args: Parameters<R[K]>) => Answered<R[K]> } & SnapshotFace {
  const face: Record<string, unknown> = {};
  for (const [name, read] of Object.entries(reads))
    face[name] = (...args: never[]) => runNow(read(...args) as Steps<unknown>);
  if (snapshot) face.snapshot = snapshot;
  return face as { [K in keyof R]: (...args: Parameters<R[K]>) => Answered<R[K]> } & SnapshotFace;
}
