/**
 * callback_batch + data, as every plugin that finishes work in the background has them (gzip,
 * zip, unzip, generate_pdf): checked before the work starts (`callbackOf`), queued once it is done
 * (`queueCallback`) through HostAdapters.batches, for the render's tenant.
 */
import type { BridgeCall } from '../plugin-contract.js';
import type { Value } from '../../value/value.js';
import { BridgeError } from '../errors.js';
import { missingAdapter } from '../capabilities.js';
import { jsonEncode } from '../../php/json/encode.js';

/** `data` of a callback, JSON-encoded, is at most this many bytes. */
export const MAX_CALLBACK_DATA_BYTES = 64 * 1024;
const SLUG = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export interface Callback {
  slug: string;
  data: Value;
}

/** The callback the attributes ask for (null: none), refused before any work when it cannot be queued. */
export function callbackOf(plugin: string, attrs: Record<string, Value>, call: BridgeCall): Callback | null {
  const slug = attrs.callback_batch;
  if (slug === undefined || slug === null || slug === '') {
    if (attrs.data !== undefined && attrs.data !== null) throw new BridgeError('E_BAD_COMBINATION', `{${plugin}} data is passed to a callback_batch, and none is given`);
    return null;
  }
  if (!call.host.batches) throw missingAdapter(`{${plugin}} callback_batch`, 'batches');
  if (typeof slug !== 'string' || !SLUG.test(slug)) throw new BridgeError('E_BAD_ATTRIBUTE', `{${plugin}} callback_batch must be a batch slug (a-z, 0-9, _ and -)`);
  const data = attrs.data ?? null;
  const json = jsonEncode(data);
  if (json === false) throw new BridgeError('E_BAD_ATTRIBUTE', `{${plugin}} data cannot be passed to a batch (it does not encode as JSON)`);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > MAX_CALLBACK_DATA_BYTES) throw new BridgeError('E_SIZE_LIMIT', `{${plugin}} data is ${bytes} bytes as JSON, over the limit of ${MAX_CALLBACK_DATA_BYTES}`);
  return { slug, data };
}

/** Queues the callback's run; E_NOT_FOUND when the tenant has no batch of that slug. */
export async function queueCallback(plugin: string, cb: Callback, call: BridgeCall): Promise<number> {
  const batches = call.host.batches;
  if (!batches) throw missingAdapter(`{${plugin}} callback_batch`, 'batches');
  const id = await batches.enqueue(call.identity.tenant, { batch: { slug: cb.slug }, module: null, data: cb.data, origin: plugin, requestId: call.identity.requestId });
  if (id === null) throw new BridgeError('E_NOT_FOUND', `{${plugin}} the site has no batch ${JSON.stringify(cb.slug)} (callback_batch)`);
  return id;
}
