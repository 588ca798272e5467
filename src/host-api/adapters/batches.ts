/**
 * Batches (HostAdapters.batches): the tenant's batch queue, as plugins start runs in it. {batch}
 * starts a registered batch with ext_data; gzip, zip, unzip and generate_pdf start their
 * `callback_batch` with `data` when they finish; webanalytics hands ids on through {batch}. The
 * plugins check the attributes and cap the data; the adapter keeps the queue of its tenant only and
 * answers null for a batch that tenant does not have. Running the queue (schedules, history, the
 * batch context) is the host's, not the plugins'.
 */
import type { Value } from '../../value/value.js';

export interface BatchStart {
  /** The batch: its registered id ({batch} batch_id) or its slug ({batch} name, callback_batch). */
  batch: { id: number } | { slug: string };
  /** {batch} module: the module of a default batch registration; null when not given. */
  module: string | null;
  /** {batch} ext_data, or a callback's data: a plain PHP value (key order kept), already capped. */
  data: Value;
  /** What queued the run, for the run history: the plugin's name (`batch`, `zip`, ...). */
  origin: string;
  /** The render that queued it (RenderIdentity.requestId). */
  requestId: string;
  /** {batch} idempotency_key: every start of the tenant with this key is one run. */
  idempotencyKey?: string;
}

export interface BatchesAdapter {
  /** Queue one run of the tenant's batch; its run id, or null when the tenant has no such batch. */
  enqueue(start: BatchStart): Promise<number | null>;
}
