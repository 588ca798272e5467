/**
 * The batch queue in the site store (batch_queue rows; schema/batches.ts): the default backend.
 * A claim is one conditional UPDATE, so two workers on one PostgreSQL database never take the
 * same run (the loser's UPDATE matches nothing and it tries the next). Leases are in milliseconds.
 */
import type { SiteDatabase, SqlRunner } from '../db/database.js';
import {
  DEDUPE_SECONDS,
  MAX_ATTEMPTS,
  type BatchQueue,
  type CancelAnswer,
  type LeaseState,
  type NewRun,
  type QueueCounts,
  type QueuedRun,
  type RunEnd,
} from './queue.js';
import { ROW_BUDGETS } from '../../index.js';
import { lockRows, refuseAtCap } from '../adapters/row-budget.js';

interface QueueRow {
  id: number | string;
  slug: string;
  module: string | null;
  data: string;
  origin: string;
  request_id: string;
  depth: number | string;
  dedupe_key: string | null;
  attempts: number | string;
  queued_at: number | string;
}

/** No cancel was asked of the batch_queue row (`smartcage batch cancel`; batch_cancels). */
const NOT_CANCELLED =
  'NOT EXISTS (SELECT 1 FROM batch_cancels c WHERE c.tenant = batch_queue.tenant AND c.run_id = batch_queue.id)';
const COLUMNS = 'id, slug, module, data, origin, request_id, depth, dedupe_key, attempts, queued_at';
/** A claim that lost a race tries again this many times before answering "nothing waiting". */
const CLAIM_TRIES = 5;

function runOf(r: QueueRow): QueuedRun {
  return {
    id: Number(r.id),
    slug: r.slug,
    module: r.module,
    data: r.data,
    origin: r.origin,
    requestId: r.request_id,
    depth: Number(r.depth),
    dedupeKey: r.dedupe_key,
    attempt: Number(r.attempts),
    queuedAt: Number(r.queued_at),
  };
}

/** The next run id of `tenant`: one counter row per tenant, bumped atomically on both backends. */
async function nextRunId(tx: SqlRunner, tenant: string): Promise<number> {
  const row = await tx.get<{ last_id: number | string }>(
    'INSERT INTO batch_ids (tenant, last_id) VALUES (?, 1) ON CONFLICT (tenant) DO UPDATE SET last_id = batch_ids.last_id + 1 RETURNING last_id',
    [tenant],
  );
  return Number(row!.last_id);
}

export class StoreQueue implements BatchQueue {
  readonly backend = 'store';

  constructor(
    private readonly db: SiteDatabase,
    private readonly tenant: string,
    private readonly leaseMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Queues `run` (or answers the id its dedupe key was first given). `publish`, when given, runs
   * inside the transaction with the new run's id: if it throws, the row is not kept (the BullMQ
   * backend tells Redis there, so a start it could not announce leaves nothing behind).
   */
  async enqueue(run: NewRun, publish?: (id: number) => Promise<void>): Promise<number> {
    return this.db.transaction(async (tx) => {
      const first =
        run.dedupeKey === null
          ? undefined
          : await tx.get<{ id: number | string }>('SELECT id FROM batch_queue WHERE tenant = ? AND dedupe_key = ?', [
              this.tenant,
              run.dedupeKey,
            ]);
      if (first) return Number(first.id);
      // The row budget (D160): runs waiting or running, counted under a lock every process takes.
      await lockRows(tx, this.db, this.tenant, 'batch_queue');
      const live = await tx.get<{ n: number | string }>(
        "SELECT COUNT(*) AS n FROM batch_queue WHERE tenant = ? AND state IN ('queued', 'running')",
        [this.tenant],
      );
      refuseAtCap(ROW_BUDGETS.batches, 'perTenant', Number(live?.n ?? 0), 'E_QUOTA');
      const id = await nextRunId(tx, this.tenant);
      const seconds = Math.floor(this.now() / 1000);
      const { changes } = await tx.run(
        `INSERT INTO batch_queue (tenant, id, slug, module, data, origin, request_id, depth, dedupe_key, state, attempts, queued_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?) ON CONFLICT (tenant, dedupe_key) DO NOTHING`,
        [this.tenant, id, run.slug, run.module, run.data, run.origin, run.requestId, run.depth, run.dedupeKey, seconds],
      );
      if (changes > 0) {
        await publish?.(id);
        return id;
      }
      // Another worker's transaction queued the same key meanwhile (PostgreSQL): its run is this one.
      const raced = await tx.get<{ id: number | string }>(
        'SELECT id FROM batch_queue WHERE tenant = ? AND dedupe_key = ?',
        [this.tenant, run.dedupeKey],
      );
      return Number(raced!.id);
    });
  }

  async claim(owner: string): Promise<QueuedRun | null> {
    const now = this.now();
    // Runs whose workers died MAX_ATTEMPTS times stop here rather than kill a fourth.
    await this.db.run(
      "UPDATE batch_queue SET state = 'failed', finished_at = ?, lease_owner = NULL, lease_expires = NULL WHERE tenant = ? AND state = 'running' AND lease_expires < ? AND attempts >= ?",
      [Math.floor(now / 1000), this.tenant, now, MAX_ATTEMPTS],
    );
    // A run cancelled while it ran whose worker died before it saw the cancel: cancelled, not run again.
    await this.db.run(
      `UPDATE batch_queue SET state = 'cancelled', finished_at = ?, lease_owner = NULL, lease_expires = NULL WHERE tenant = ? AND state = 'running' AND lease_expires < ? AND NOT ${NOT_CANCELLED}`,
      [Math.floor(now / 1000), this.tenant, now],
    );
    const waiting = `(state = 'queued' OR (state = 'running' AND lease_expires < ? AND ${NOT_CANCELLED}))`;
    for (let i = 0; i < CLAIM_TRIES; i++) {
      const next = await this.db.get<{ id: number | string }>(
        `SELECT id FROM batch_queue WHERE tenant = ? AND ${waiting} ORDER BY id LIMIT 1`,
        [this.tenant, now],
      );
      if (!next) {
        await this.prune(now);
        return null;
      }
      const row = await this.db.get<QueueRow>(
        `UPDATE batch_queue SET state = 'running', lease_owner = ?, lease_expires = ?, attempts = attempts + 1
         WHERE tenant = ? AND id = ? AND ${waiting} RETURNING ${COLUMNS}`,
        [owner, now + this.leaseMs, this.tenant, Number(next.id), now],
      );
      if (row) return runOf(row);
    }
    return null;
  }

  /** Claims run `id` for `owner` when it is waiting (queued, or running on an expired lease); else null. */
  async claimRun(id: number, owner: string): Promise<QueuedRun | null> {
    const now = this.now();
    const row = await this.db.get<QueueRow>(
      `UPDATE batch_queue SET state = 'running', lease_owner = ?, lease_expires = ?, attempts = attempts + 1
       WHERE tenant = ? AND id = ? AND (state = 'queued' OR (state = 'running' AND lease_expires < ? AND attempts < ? AND ${NOT_CANCELLED})) RETURNING ${COLUMNS}`,
      [owner, now + this.leaseMs, this.tenant, id, now, MAX_ATTEMPTS],
    );
    return row ? runOf(row) : null;
  }

  async renew(id: number, owner: string): Promise<LeaseState> {
    const now = this.now();
    const { changes } = await this.db.run(
      "UPDATE batch_queue SET lease_expires = ? WHERE tenant = ? AND id = ? AND state = 'running' AND lease_owner = ? AND lease_expires >= ?",
      [now + this.leaseMs, this.tenant, id, owner, now],
    );
    if (changes === 0) return 'lost';
    const cancel = await this.db.get('SELECT 1 AS x FROM batch_cancels WHERE tenant = ? AND run_id = ?', [
      this.tenant,
      id,
    ]);
    return cancel ? 'cancelled' : 'held';
  }

  async cancel(id: number): Promise<CancelAnswer> {
    const seconds = Math.floor(this.now() / 1000);
    // A queued run: cancelled here, and no claim takes it (they take state 'queued' only).
    const queued = await this.db.run(
      "UPDATE batch_queue SET state = 'cancelled', finished_at = ? WHERE tenant = ? AND id = ? AND state = 'queued'",
      [seconds, this.tenant, id],
    );
    if (queued.changes > 0) return 'cancelled';
    // A running run: the cancel is a row its worker finds at its next renewal.
    await this.db.run(
      `INSERT INTO batch_cancels (tenant, run_id, requested) SELECT tenant, id, ? FROM batch_queue
       WHERE tenant = ? AND id = ? AND state = 'running' ON CONFLICT (tenant, run_id) DO NOTHING`,
      [seconds, this.tenant, id],
    );
    const row = await this.db.get<{ state: string }>('SELECT state FROM batch_queue WHERE tenant = ? AND id = ?', [
      this.tenant,
      id,
    ]);
    if (!row) return 'unknown';
    return row.state === 'running' ? 'cancelling' : 'finished';
  }

  async finish(id: number, owner: string, outcome: RunEnd): Promise<boolean> {
    const now = this.now();
    const { changes } = await this.db.run(
      "UPDATE batch_queue SET state = ?, finished_at = ?, lease_owner = NULL, lease_expires = NULL WHERE tenant = ? AND id = ? AND state = 'running' AND lease_owner = ? AND lease_expires >= ?",
      [outcome, Math.floor(now / 1000), this.tenant, id, owner, now],
    );
    return changes > 0;
  }

  async counts(): Promise<QueueCounts> {
    const rows = await this.db.all<{ state: string; n: number | string }>(
      "SELECT state, COUNT(*) AS n FROM batch_queue WHERE tenant = ? AND state IN ('queued', 'running') GROUP BY state",
      [this.tenant],
    );
    const n = (s: string) => Number(rows.find((r) => r.state === s)?.n ?? 0);
    return { queued: n('queued'), running: n('running') };
  }

  async close(): Promise<void> {}

  /** Finished runs go once their dedupe keys have served their time (the history keeps the runs). */
  private async prune(now: number): Promise<void> {
    await this.db.run(
      "DELETE FROM batch_cancels WHERE tenant = ? AND NOT EXISTS (SELECT 1 FROM batch_queue q WHERE q.tenant = batch_cancels.tenant AND q.id = batch_cancels.run_id AND q.state = 'running')",
      [this.tenant],
    );
    await this.db.run(
      "DELETE FROM batch_queue WHERE tenant = ? AND state IN ('done', 'failed', 'cancelled') AND finished_at < ?",
      [this.tenant, Math.floor(now / 1000) - DEDUPE_SECONDS],
    );
  }
}
