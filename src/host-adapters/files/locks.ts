/**
 * Per-path async locks, process-wide: keyed by real root and canonical virtual path, so every
 * TenantFiles of the same root in this process shares them (appends from two instances do not
 * interleave, a replacement and a move of one file do not cross). Only this process: a store
 * several processes share takes SharedLocks (shared-coordination.ts) as well, after these.
 */

import type { LockRefusal } from './shared-coordination.js';
import type { VirtualPath } from './virtual-path.js';

const locks = new Map<string, Promise<void>>();

/** A bounded wait for locks ended without them (withPathLocks with `bound`). */
export class LockWaitRefused extends Error {
  constructor(readonly refusal: LockRefusal) {
    super(`lock wait ${refusal.reason} after ${refusal.waitedMs} ms`);
    this.name = 'LockWaitRefused';
  }
}

/** Resolves with `p`, or rejects with LockWaitRefused once `until` passes or `signal` aborts. */
async function boundedWait(
  p: Promise<unknown>,
  started: number,
  until: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const refused = (reason: 'timeout' | 'aborted') =>
    new LockWaitRefused({ ok: false, reason, waitedMs: Date.now() - started });
  if (signal?.aborted) throw refused('aborted');
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(refused('timeout')), Math.max(0, until - Date.now()));
        onAbort = () => reject(refused('aborted'));
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Run `fn` holding the locks of `paths` below `realRoot`, taken in sorted order so two callers
 * never deadlock. With `bound`, the wait is capped (LockWaitRefused, `fn` not run).
 */
export function withPathLocks<T>(
  realRoot: string,
  paths: readonly VirtualPath[],
  fn: () => Promise<T>,
  bound?: { waitMs: number; signal?: AbortSignal },
): Promise<T> {
  return withKeyLocks(
    realRoot,
    paths.map((p) => p.text),
    fn,
    bound,
  );
}

/** withPathLocks for names that are not virtual paths (an S3 folder marker's key). */
export async function withKeyLocks<T>(
  realRoot: string,
  names: readonly string[],
  fn: () => Promise<T>,
  bound?: { waitMs: number; signal?: AbortSignal },
): Promise<T> {
  const sorted = [...new Set(names.map((n) => `${realRoot}\0${n}`))].sort();
  const releases: (() => void)[] = [];
  const started = Date.now();
  try {
    for (const key of sorted) {
      const prev = locks.get(key) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((r) => (release = r));
      // Released early (a refused wait), the next holder still waits for `prev`.
      const chained = prev.then(() => mine);
      locks.set(key, chained);
      // Forgotten once nobody holds or waits for it (not at an early release: `prev` may still hold).
      void chained.then(() => {
        if (locks.get(key) === chained) locks.delete(key);
      });
      releases.push(release);
      if (bound) await boundedWait(prev, started, started + bound.waitMs, bound.signal);
      else await prev;
    }
    return await fn();
  } finally {
    for (const r of releases.reverse()) r();
  }
}
