/**
 * The queue contract of a site's batches: one tenant's runs, queued by {batch} and the
 * callback_batch of the archive and document plugins and by schedules, claimed by workers
 * (`smartcage batch run`) under a lease. Two backends keep it: the site store (store-queue.ts, the
 * default) and BullMQ on Redis (bullmq-queue.ts, for hosts that run workers on several machines).
 * test/site/batches/queue-contract.test.ts runs the same tests against both.
 *
 * Delivery is at least once: a worker that dies mid-run loses its lease, and the run is claimed
 * again once the lease expires, up to MAX_ATTEMPTS attempts. Exactly once holds where a duplicate
 * would do harm (docs/decisions.md D98): queuing (one run per dedupe key: a schedule slot, or the
 * same batch and data from one render) and finishing (only the lease's holder may finish a run).
 */

import { ROW_BUDGETS } from '../../index.js';

export interface NewRun {
  /** The batch: a site.json slug, or a module's default batch (`module` set). */
  slug: string;
  module: string | null;
  /** ext_data / callback data as PHP's json_encode writes it (php-json.ts). */
  data: string;
  /** What queued it: `batch`, `zip`, ..., or `schedule`. */
  origin: string;
  requestId: string;
  /** How many batch runs queued this one's ancestors (0: queued from outside a batch). */
  depth: number;
  /** Runs queued with the same key are one run: the second enqueue answers the first's id. */
  dedupeKey: string | null;
}

export interface QueuedRun extends NewRun {
  id: number;
  /** Attempts started so far, this one included (1 on the first claim). */
  attempt: number;
  queuedAt: number;
}

export interface QueueCounts {
  queued: number;
  running: number;
}

/** A heartbeat's answer: the lease is still the worker's, it is not (another may run the run), or it is but the run was cancelled. */
export type LeaseState = 'held' | 'lost' | 'cancelled';

/**
 * What `smartcage batch cancel` did: a queued run is cancelled and never starts; a running one is
 * marked, and its worker aborts it at its next heartbeat; a finished one, or none, is left alone.
 */
export type CancelAnswer = 'cancelled' | 'cancelling' | 'finished' | 'unknown';

export interface BatchQueue {
  readonly backend: 'store' | 'bullmq';
  /** Queues a run of the queue's tenant; its id (per tenant, from 1). */
  enqueue(run: NewRun): Promise<number>;
  /**
   * The oldest run this worker may take, now leased to `owner` for the queue's lease time: a
   * queued run, or a running one whose lease expired (its worker died). Null when none is waiting.
   */
  claim(owner: string): Promise<QueuedRun | null>;
  /** Extends `owner`'s lease on run `id` (`lost` when it is no longer its); `cancelled` when a cancel was asked. */
  renew(id: number, owner: string): Promise<LeaseState>;
  /** Ends run `id`; false, and nothing changes, when the lease is no longer `owner`'s. */
  finish(id: number, owner: string, outcome: RunEnd, error?: string): Promise<boolean>;
  /** Cancels run `id` (see CancelAnswer). */
  cancel(id: number): Promise<CancelAnswer>;
  counts(): Promise<QueueCounts>;
  close(): Promise<void>;
}

/** How a run ends. */
export type RunEnd = 'done' | 'failed' | 'cancelled';

/** The queue's transport could not take a run: the start fails at once and leaves nothing queued. */
export class QueueUnavailable extends Error {}

/** A run whose workers died this many times is failed rather than claimed again. */
export const MAX_ATTEMPTS = 3;
/** Default lease of a claimed run; the worker renews it every third of it while the run renders. */
export const DEFAULT_LEASE_MS = 60_000;
/** Runs waiting (queued or running) per tenant; the next enqueue is E_QUOTA. */
export const MAX_PENDING_RUNS = ROW_BUDGETS.batches.perTenant.max;
/** A batch run may queue runs that queue runs... this deep (CPU-07: a batch that starts itself). */
export const MAX_BATCH_DEPTH = 5;
/** How long a finished run's dedupe key keeps answering its id. */
export const DEDUPE_SECONDS = 7 * 86_400;
