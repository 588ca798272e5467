/**
 * What a store shares with every process that opens the same storage: path locks and the usage
 * count. The host implements both in the backend that already holds the tenant's data (the site:
 * PostgreSQL advisory locks or SQLite lock rows, and one usage row per tenant; src/site/db/
 * store-coordination.ts), so several serve nodes on one bucket lock and count in one place, never
 * per process. A store given neither keeps its per-process locks and counts (one process only).
 */
import type { QuotaLimits, Usage } from './quota.js';

/** How a wait for shared locks ended when it did not get them: out of time, or the render ended. */
export type LockRefusal = { ok: false; reason: 'timeout' | 'aborted'; waitedMs: number };

export interface SharedLocks {
  /** A few words for messages and docs: `postgres-advisory`, `sqlite-rows`. */
  readonly kind: string;
  /**
   * Runs `fn` holding the locks of `keys` (every process passing an equal key waits for the
   * other), taken in one fixed order so two holders never deadlock. Waits at most `waitMs`, and no
   * longer than `signal` stays unaborted; then `fn` does not run and the answer says why.
   */
  withLocks<T>(
    keys: readonly string[],
    fn: () => Promise<T>,
    o: { waitMs: number; signal?: AbortSignal },
  ): Promise<{ ok: true; value: T } | LockRefusal>;
}

/** Which limit an atomic reservation passed. */
export type ReserveResult = 'ok' | 'bytes' | 'entries';

export interface SharedUsage {
  /** The recorded usage, or null before the store's first count (`seed`). */
  get(): Promise<Usage | null>;
  /** Records a first count (a scan of the storage), unless one is recorded already. */
  seed(u: Usage): Promise<void>;
  /**
   * Adds `bytes` and `entries` (either may be negative) in one statement that checks the limits
   * as it adds: a growth that would pass a limit changes nothing and answers which limit.
   */
  reserve(bytes: number, entries: number, limits: QuotaLimits): Promise<ReserveResult>;
  /** Gives back `bytes` and `entries` (a removal, a failed write); the count never goes below 0. */
  release(bytes: number, entries: number): Promise<void>;
}
