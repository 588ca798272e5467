/**
 * `callback_batch` and `data` of the plugins that queue a batch when their work is done (gzip,
 * zip, unzip, generate_pdf): checked before the work, queued after it through startBatch
 * (batches/start.ts), which {batch} uses too.
 *
 * Decisions (docs/decisions.md D82):
 *  - Both are checked before any work: the adapter is there (E_HOST_CAPABILITY otherwise), the
 *    slug has the shape of an identifier (E_BAD_ATTRIBUTE), `data` without `callback_batch` is
 *    E_BAD_COMBINATION, and `data` passes startBatch's checks (JSON within MAX_BATCH_DATA_BYTES,
 *    no secret handle: the batch runs in another render, where the handle means nothing).
 *  - The run is queued after the result is complete; a site without that batch is E_NOT_FOUND,
 *    whose message says the result was written all the same.
 */
import type { BridgeCall } from './plugin-contract.js';
import { BridgeError } from '../host-api/errors.js';
import { missingAdapter } from '../host-api/capabilities.js';
import type { Value } from '../value/value.js';
import { checkBatchData, startBatch } from './batches/start.js';

const SLUG = /^[A-Za-z0-9_-]{1,100}$/;

export interface Callback {
  slug: string;
  data: Value;
}

/** The callback the attributes ask for, checked; null when there is none. */
export function callbackOf(plugin: string, attrs: Record<string, Value>, call: BridgeCall): Callback | null {
  const slug = attrs.callback_batch;
  const data = attrs.data ?? null;
  if (slug === undefined || slug === null || slug === '') {
    if (data !== null)
      throw new BridgeError('E_BAD_COMBINATION', `{${plugin}} data= is passed to callback_batch, which is not given`);
    return null;
  }
  if (!call.host.batches) throw missingAdapter(`{${plugin}} callback_batch=`, 'batches');
  if (typeof slug !== 'string' || !SLUG.test(slug))
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{${plugin}} callback_batch= must be a batch identifier (letters, digits, _ and -)`,
    );
  checkBatchData(plugin, data, call, 'data=');
  return { slug, data };
}

/** Queues the callback's run; `done` says what was written, for the error when the batch is missing. */
export async function queueCallback(plugin: string, cb: Callback, call: BridgeCall, done: string): Promise<void> {
  try {
    await startBatch(call, plugin, { batch: { slug: cb.slug }, module: null, data: cb.data });
  } catch (e) {
    if (e instanceof BridgeError && e.code === 'E_NOT_FOUND')
      throw new BridgeError(
        'E_NOT_FOUND',
        `{${plugin}} ${done}, but the site has no batch ${JSON.stringify(cb.slug)} to call back`,
      );
    throw e;
  }
}
