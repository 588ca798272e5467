/**
 * Starting a batch run from a plugin: {batch}, and the callback_batch of gzip, zip, unzip and
 * generate_pdf, which call this with their `data`. The data is capped (MAX_BATCH_DATA_BYTES of
 * json_encode text) and may hold no secret handle (a handle names a secret for one render; kept
 * in the queue it would outlive it). The adapter answers for the render's tenant only.
 */
import type { BridgeCall } from '../plugin-contract.js';
import type { BatchStart } from '../../host-api/adapters/batches.js';
import { BridgeError } from '../../host-api/errors.js';
import { missingAdapter } from '../../host-api/capabilities.js';
import { jsonEncode } from '../../php/json/encode.js';
import type { Value } from '../../value/value.js';

/** Longest ext_data / data of one run, as json_encode text. */
export const MAX_BATCH_DATA_BYTES = 64 * 1024;

/**
 * Checks a run's data before any work that leads to queuing it: it encodes as JSON within
 * MAX_BATCH_DATA_BYTES and holds no secret handle. `what` names the attribute in errors.
 */
export function checkBatchData(plugin: string, data: Value, call: BridgeCall, what = "the batch's data"): void {
  const text = jsonEncode(data);
  if (text === false)
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{${plugin}} ${what} cannot be encoded as JSON (a value nested too deep, or not a finite number)`,
    );
  if (Buffer.byteLength(text, 'utf8') > MAX_BATCH_DATA_BYTES)
    throw new BridgeError('E_SIZE_LIMIT', `{${plugin}} ${what} is larger than ${MAX_BATCH_DATA_BYTES} bytes as JSON`);
  if (call.secrets.contains(text))
    throw new BridgeError(
      'E_SECRET_DENIED',
      `a secret may not be passed to a batch ({${plugin}} ${what}): a batch reads it with {secret} itself`,
    );
}

/** Queues the run; its id. `plugin` names the calling tag in errors. */
export async function startBatch(
  call: BridgeCall,
  plugin: string,
  start: Omit<BatchStart, 'requestId' | 'origin'>,
): Promise<number> {
  const adapter = call.host.batches;
  if (!adapter) throw missingAdapter(`{${plugin}}`, 'batches');
  checkBatchData(plugin, start.data, call);
  const id = await adapter.enqueue({
    ...start,
    origin: plugin,
    requestId: call.identity.requestId,
  });
  const which =
    'id' in start.batch
      ? `batch_id=${start.batch.id}`
      : `${start.module === null ? '' : `module="${start.module}" `}name="${start.batch.slug}"`;
  if (id === null) throw new BridgeError('E_NOT_FOUND', `{${plugin}} this site has no batch ${which}`);
  return id;
}
