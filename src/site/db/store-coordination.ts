/**
 * The storage's path locks and usage count in the site's database (the SharedLocks and
 * SharedUsage of S3Files), so every process serving the site (serve nodes, batch workers, the
 * CLI) locks and counts in one place:
 *  - Locks on PostgreSQL are session advisory locks (pg_advisory_lock on a 64-bit hash of tenant
 *    and key) on one pooled connection taken for the change, which also runs the usage statements
 *    made meanwhile (so a holder never needs a second connection: four holders would otherwise
 *    exhaust a pool of four). A node that dies lets go with its connection. The wait is capped
 *    by `lock_timeout`.
 *  - Locks on SQLite (one file, so the processes of one host) are rows of storage_locks, taken
 *    by one upsert that only replaces an expired row or the row of a dead process of this host,
 *    renewed while held, deleted at the end. The wait polls, with backoff, up to its cap.
 *  - The usage is one row per tenant in storage_usage, changed only by statements that check the
 *    limit as they add (`... WHERE bytes + n <= limit`): two processes never both take the last
 *    bytes.
 * Both backends stop waiting when the render's signal aborts.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { LockRefusal, QuotaLimits, ReserveResult, SharedLocks, SharedUsage, Usage } from '../../index.js';
import type { SiteDatabase, SqlRunner } from './database.js';

/** A lock row not renewed for this long belongs to a holder that is gone (SQLite). */
const LOCK_LEASE_MS = 60_000;
const RENEW_EVERY_MS = LOCK_LEASE_MS / 3;

type Outcome<T> = { ok: true; value: T } | LockRefusal;

/** The connection holding advisory locks, for the usage statements made under them (no second connection from the pool). */
const heldBy = new AsyncLocalStorage<{ db: SiteDatabase; runner: SqlRunner }>();

export function databaseLocks(db: SiteDatabase, tenant: string): SharedLocks {
  return db.dialect === 'postgres' ? new AdvisoryLocks(db, tenant) : new RowLocks(db, tenant);
}

/** The advisory lock id of `key`: 64 bits of SHA-256, as PostgreSQL's signed BIGINT in decimal. */
function advisoryLockId(tenant: string, key: string): string {
  return createHash('sha256').update(`storage\0${tenant}\0${key}`).digest().readBigInt64BE(0).toString();
}

class Refused extends Error {
  constructor(readonly reason: LockRefusal['reason']) {
    super(reason);
  }
}

class AdvisoryLocks implements SharedLocks {
  readonly kind = 'postgres-advisory';
  constructor(
    private readonly db: SiteDatabase,
    private readonly tenant: string,
  ) {}

  async withLocks<T>(
    keys: readonly string[],
    fn: () => Promise<T>,
    o: { waitMs: number; signal?: AbortSignal },
  ): Promise<Outcome<T>> {
    const started = Date.now();
    const refusal = (reason: LockRefusal['reason']): LockRefusal => ({
      ok: false,
      reason,
      waitedMs: Date.now() - started,
    });
    if (o.signal?.aborted) return refusal('aborted');
    if (!this.db.connection) throw new Error('advisory locks need a PostgreSQL connection of their own');
    // One order for every process (numeric), so two holders of overlapping keys never deadlock.
    const ids = [...new Set(keys.map((k) => advisoryLockId(this.tenant, k)))].sort((a, b) =>
      BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0,
    );
    let running = false;
    const lockAll = async (c: SqlRunner, taken: string[] = []): Promise<void> => {
      // 0 would mean "no cap".
      const cap = Math.max(1, Math.ceil(o.waitMs - (Date.now() - started)));
      await c.run(`SET lock_timeout = ${cap}`);
      try {
        for (const id of ids) {
          await c.get('SELECT pg_advisory_lock(CAST(? AS BIGINT)) AS locked', [id]);
          taken.push(id);
        }
      } finally {
        await c.run('RESET lock_timeout');
      }
      if (o.signal?.aborted) throw new Refused('aborted');
      running = true;
    };
    const held = heldBy.getStore();
    // Session locks on one connection, not a transaction's: the usage statements fn makes run on
    // that connection (heldBy) and commit at once, so no other process waits for this one's row.
    // Locks taken while holding others (a folder marker's, under a file's) use the same
    // connection: a holder never asks the pool for a second one.
    const work =
      held?.db === this.db
        ? (async () => {
            const taken: string[] = [];
            try {
              await lockAll(held.runner, taken);
              return await fn();
            } finally {
              // Only what this call took: the same key held outside stays held (PostgreSQL counts each take).
              for (const id of taken.reverse())
                await held.runner.get('SELECT pg_advisory_unlock(CAST(? AS BIGINT)) AS unlocked', [id]);
            }
          })()
        : this.db.connection<T>(async (c) => {
            try {
              await lockAll(c);
              return await heldBy.run({ db: this.db, runner: c }, fn);
            } finally {
              await c.get('SELECT pg_advisory_unlock_all() AS unlocked');
            }
          });
    const settled: Promise<Outcome<T>> = work.then(
      (value) => ({ ok: true, value }),
      (e: unknown) => {
        if (e instanceof Refused) return refusal(e.reason);
        if ((e as { code?: unknown }).code === '55P03') return refusal('timeout'); // lock_not_available
        throw e;
      },
    );
    if (!o.signal) return settled;
    // The render ended while PostgreSQL still waits: answer now; the connection sees the abort
    // once it has the locks and lets go without running fn. Once fn runs, its end is awaited.
    const signal = o.signal;
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<'aborted'>((resolve) => {
      onAbort = () => resolve('aborted');
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const first = await Promise.race([settled, aborted]);
      if (first !== 'aborted') return first;
      if (running) return await settled;
      settled.catch(() => {});
      return refusal('aborted');
    } finally {
      signal.removeEventListener('abort', onAbort!);
    }
  }
}

/** Is `pid` a live process of this host? */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
}

class RowLocks implements SharedLocks {
  readonly kind = 'sqlite-rows';
  private readonly host = hostname();
  constructor(
    private readonly db: SiteDatabase,
    private readonly tenant: string,
  ) {}

  async withLocks<T>(
    keys: readonly string[],
    fn: () => Promise<T>,
    o: { waitMs: number; signal?: AbortSignal },
  ): Promise<Outcome<T>> {
    const started = Date.now();
    const owner = `${this.host}:${process.pid}:${randomUUID()}`;
    const held: string[] = [];
    try {
      for (const key of [...new Set(keys)].sort()) {
        const r = await this.acquire(key, owner, started, o);
        if (r) return r;
        held.push(key);
      }
      const renew = setInterval(() => {
        for (const key of held)
          void this.db
            .run('UPDATE storage_locks SET expires = ? WHERE tenant = ? AND lock_key = ? AND owner = ?', [
              Date.now() + LOCK_LEASE_MS,
              this.tenant,
              key,
              owner,
            ])
            .catch(() => {});
      }, RENEW_EVERY_MS);
      renew.unref();
      try {
        return { ok: true, value: await fn() };
      } finally {
        clearInterval(renew);
      }
    } finally {
      for (const key of held.reverse())
        await this.db.run('DELETE FROM storage_locks WHERE tenant = ? AND lock_key = ? AND owner = ?', [
          this.tenant,
          key,
          owner,
        ]);
    }
  }

  /** Takes one row, polling with backoff: null when taken, else why not. */
  private async acquire(
    key: string,
    owner: string,
    started: number,
    o: { waitMs: number; signal?: AbortSignal },
  ): Promise<LockRefusal | null> {
    let pause = 2;
    for (;;) {
      if (o.signal?.aborted) return { ok: false, reason: 'aborted', waitedMs: Date.now() - started };
      const now = Date.now();
      const taken = await this.db.run(
        `INSERT INTO storage_locks (tenant, lock_key, owner, expires) VALUES (?, ?, ?, ?)
         ON CONFLICT (tenant, lock_key) DO UPDATE SET owner = excluded.owner, expires = excluded.expires
         WHERE storage_locks.expires < ?`,
        [this.tenant, key, owner, now + LOCK_LEASE_MS, now],
      );
      if (taken.changes === 1) return null;
      const holder = await this.db.get<{ owner: string }>(
        'SELECT owner FROM storage_locks WHERE tenant = ? AND lock_key = ?',
        [this.tenant, key],
      );
      const [host, pid] = holder?.owner.split(':') ?? [];
      if (holder && host === this.host && !alive(Number(pid))) {
        // A process of this host that died holding it (SIGKILL): no need to wait out its lease.
        await this.db.run('DELETE FROM storage_locks WHERE tenant = ? AND lock_key = ? AND owner = ?', [
          this.tenant,
          key,
          holder.owner,
        ]);
        continue;
      }
      if (Date.now() - started >= o.waitMs) return { ok: false, reason: 'timeout', waitedMs: Date.now() - started };
      await new Promise((r) => setTimeout(r, Math.min(pause, Math.max(1, o.waitMs - (Date.now() - started)))));
      pause = Math.min(50, pause * 2) * (0.75 + Math.random() / 2);
    }
  }
}

/** The tenant's storage usage, one row of storage_usage. */
export function databaseUsage(site: SiteDatabase, tenant: string): SharedUsage {
  const big = 'CAST(? AS BIGINT)';
  // Under this site's advisory locks, the lock's connection: a holder never waits for the pool.
  const runner = (): SqlRunner => {
    const held = heldBy.getStore();
    return held?.db === site ? held.runner : site;
  };
  return {
    async get(): Promise<Usage | null> {
      const r = await runner().get<{ bytes: number; entries: number }>(
        'SELECT bytes, entries FROM storage_usage WHERE tenant = ?',
        [tenant],
      );
      return r ? { bytes: Number(r.bytes), entries: Number(r.entries) } : null;
    },
    async seed(u: Usage): Promise<void> {
      await runner().run(
        'INSERT INTO storage_usage (tenant, bytes, entries, updated) VALUES (?, ?, ?, ?) ON CONFLICT (tenant) DO NOTHING',
        [tenant, u.bytes, u.entries, Date.now()],
      );
    },
    async reserve(bytes: number, entries: number, limits: QuotaLimits): Promise<ReserveResult> {
      const r = await runner().run(
        `UPDATE storage_usage
         SET bytes = CASE WHEN bytes + ${big} < 0 THEN 0 ELSE bytes + ${big} END,
             entries = CASE WHEN entries + ${big} < 0 THEN 0 ELSE entries + ${big} END,
             updated = ?
         WHERE tenant = ?
           AND (${big} <= 0 OR bytes + ${big} <= ${big})
           AND (${big} <= 0 OR entries + ${big} <= ${big})`,
        [
          bytes,
          bytes,
          entries,
          entries,
          Date.now(),
          tenant,
          bytes,
          bytes,
          limits.quotaBytes,
          entries,
          entries,
          limits.maxStorageEntries,
        ],
      );
      if (r.changes === 1) return 'ok';
      const now = await this.get();
      if (!now) throw new Error('storage usage of the site was never counted');
      return bytes > 0 && now.bytes + bytes > limits.quotaBytes ? 'bytes' : 'entries';
    },
    async release(bytes: number, entries: number): Promise<void> {
      await runner().run(
        `UPDATE storage_usage
         SET bytes = CASE WHEN bytes - ${big} < 0 THEN 0 ELSE bytes - ${big} END,
             entries = CASE WHEN entries - ${big} < 0 THEN 0 ELSE entries - ${big} END,
             updated = ?
         WHERE tenant = ?`,
        [bytes, bytes, entries, entries, Date.now(), tenant],
      );
    },
  };
}
