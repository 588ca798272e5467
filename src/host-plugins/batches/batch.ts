/**
 * {batch}: queues a run of one of the site's batches (by batch_id, or by name, with module for
 * a module's default batch) with ext_data; `var` gets the run's id. One of batch_id and name is
 * required; both at once, or module with batch_id, is E_BAD_COMBINATION (D96). The same batch
 * with the same ext_data queued twice in one render is one run (the adapter's dedupe), and so
 * is every start of the tenant with the same idempotency_key (D178).
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { PhpArray, PhpObject } from '../../value/value.js';
import { startBatch } from './start.js';
import declaration from '../../plugins/host-batches/batch.js';

/** Longest idempotency_key. */
const MAX_IDEMPOTENCY_KEY = 200;

export const batch = implement(declaration, async (attrs, call) => {
  const id = typeof attrs.batch_id === 'number' ? attrs.batch_id : null;
  const name = typeof attrs.name === 'string' ? attrs.name : null;
  const module = typeof attrs.module === 'string' ? attrs.module : null;
  if (id === null && name === null) throw new BridgeError('E_BAD_ATTRIBUTE', '{batch} needs batch_id= or name=');
  if (id !== null && name !== null)
    throw new BridgeError('E_BAD_COMBINATION', '{batch} takes batch_id= or name=, not both');
  if (id !== null && module !== null)
    throw new BridgeError('E_BAD_COMBINATION', '{batch} module= names a default batch by name=, not by batch_id=');
  const data = attrs.ext_data ?? PhpArray.empty();
  if (!(data instanceof PhpArray) && !(data instanceof PhpObject))
    throw new BridgeError('E_BAD_ATTRIBUTE', '{batch} ext_data= must be an array');
  const key = typeof attrs.idempotency_key === 'string' ? attrs.idempotency_key : undefined;
  if (key !== undefined && (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY))
    throw new BridgeError('E_BAD_ATTRIBUTE', `{batch} idempotency_key= must be 1 to ${MAX_IDEMPOTENCY_KEY} characters`);
  const runId = await startBatch(call, 'batch', {
    batch: id !== null ? { id } : { slug: name! },
    module,
    data,
    ...(key === undefined ? {} : { idempotencyKey: key }),
  });
  return typeof attrs.var === 'string' ? { assign: [[attrs.var, runId]] } : {};
});
