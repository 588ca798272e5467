/**
 * The usage count a store checks its quota against, in one of two places: this process (Quota,
 * quota.ts: scanned once, then kept by this instance's own writes) or the host's shared backend
 * (SharedUsage: one row per tenant that every process updates atomically, checked in the same
 * statement that adds). The store calls the same four operations on either.
 */
import { FileError } from './errors.js';
import { Quota, type QuotaLimits, type Usage } from './quota.js';
import type { ReserveResult, SharedUsage } from './shared-coordination.js';
import type { VirtualPath } from './virtual-path.js';

export interface StoreCount {
  /** Counted already, or counted now (a scan). Every write calls it first. */
  load(): Promise<void>;
  /** Counts `bytes` and `entries` more (either may be negative): E_QUOTA when a growth passes a limit, nothing counted. */
  reserve(p: VirtualPath, bytes: number, entries: number): Promise<void>;
  /** Gives back what a removal freed, or what a failed write reserved and did not write. */
  release(bytes: number, entries: number): Promise<void>;
  /**
   * A write failed after reserving `bytes` and `entries` and did not write them: the count drops
   * them (Quota, which cannot tell what was written meanwhile, counts again at the next load).
   */
  failed(bytes: number, entries: number): Promise<void>;
  /** Runs a write that reserves as it goes. */
  writing<T>(fn: () => Promise<T>): Promise<T>;
}

function quotaError(p: VirtualPath, which: Exclude<ReserveResult, 'ok'>, limits: QuotaLimits): FileError {
  return which === 'bytes'
    ? new FileError('E_QUOTA', p.text, `storage quota of ${limits.quotaBytes} bytes exceeded`, { reason: 'quota' })
    : new FileError('E_QUOTA', p.text, `the storage holds at most ${limits.maxStorageEntries} files and folders`, {
        reason: 'quota',
      });
}

/** The count of this process only (a store no other process writes). */
export class LocalCount implements StoreCount {
  private readonly quota: Quota;
  constructor(scan: () => Promise<Usage>, limits: QuotaLimits) {
    this.quota = new Quota(scan, limits);
  }
  load(): Promise<void> {
    return this.quota.load();
  }
  async reserve(p: VirtualPath, bytes: number, entries: number): Promise<void> {
    this.quota.reserveBytes(bytes, p);
    try {
      this.quota.reserveEntries(Math.max(0, entries), p);
    } catch (e) {
      this.quota.releaseBytes(bytes);
      throw e;
    }
    if (entries < 0) this.quota.releaseEntries(-entries);
  }
  async release(bytes: number, entries: number): Promise<void> {
    this.quota.releaseBytes(bytes);
    this.quota.releaseEntries(entries);
  }
  async failed(): Promise<void> {
    // What was written of it is unknown here (a marker, the object before a failed delete): count again.
    this.quota.forget();
  }
  writing<T>(fn: () => Promise<T>): Promise<T> {
    return this.quota.writing(fn);
  }
  rescan(): Promise<Usage> {
    return this.quota.rescan();
  }
}

/**
 * The count in the host's backend, shared by every process on the storage. Seeded by one scan
 * when the backend has none; from then on only reservations and releases change it, each one
 * statement, so two processes never both take the last bytes.
 */
export class SharedCount implements StoreCount {
  private seeded: Promise<void> | undefined;

  constructor(
    private readonly usage: SharedUsage,
    private readonly scan: () => Promise<Usage>,
    private readonly limits: QuotaLimits,
  ) {}

  load(): Promise<void> {
    this.seeded ??= (async () => {
      if ((await this.usage.get()) !== null) return;
      const u = await this.scan();
      // A scan that stopped at the entry cap says "full": a count the backend can hold that still is.
      await this.usage.seed({
        bytes: Number.isFinite(u.bytes) ? u.bytes : this.limits.quotaBytes + 1,
        entries: u.entries,
      });
    })().catch((e: unknown) => {
      this.seeded = undefined;
      throw e;
    });
    return this.seeded;
  }
  async reserve(p: VirtualPath, bytes: number, entries: number): Promise<void> {
    const r = await this.usage.reserve(bytes, entries, this.limits);
    if (r !== 'ok') throw quotaError(p, r, this.limits);
  }
  release(bytes: number, entries: number): Promise<void> {
    return this.usage.release(bytes, entries);
  }
  failed(bytes: number, entries: number): Promise<void> {
    return this.usage.release(bytes, entries);
  }
  writing<T>(fn: () => Promise<T>): Promise<T> {
    return fn();
  }
}
