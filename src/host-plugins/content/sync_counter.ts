/**
 * {sync_counter}: the pending counter values of the given contents become the contents' values,
 * in one transaction of the adapter (all or none). IDs: an array, or a comma-separated string.
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { PhpArray, type Value } from '../../value/value.js';
import { contentAdapter } from './common.js';
import { positiveId } from '../data-attrs.js';
import declaration from '../../plugins/host-content/sync_counter.js';

const MAX_IDS = 1000;

function idsOf(v: Value): number[] {
  let items: Value[];
  if (v instanceof PhpArray) items = v.values();
  else if (typeof v === 'string' || typeof v === 'number') items = String(v).split(',');
  else
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      '{sync_counter} ids= must be an array or a comma-separated string of content IDs',
    );
  const ids = new Set<number>();
  for (const item of items) {
    if (typeof item === 'string' && item.trim() === '') continue;
    const id = positiveId(typeof item === 'string' ? item.trim() : item);
    if (id === null)
      throw new BridgeError(
        'E_BAD_ATTRIBUTE',
        `{sync_counter} ids= holds "${String(item).slice(0, 40)}", which is not a content ID`,
      );
    ids.add(id);
    if (ids.size > MAX_IDS)
      throw new BridgeError('E_BAD_ATTRIBUTE', `{sync_counter} ids= holds more than ${MAX_IDS} IDs`);
  }
  return [...ids];
}

export const syncCounter = implement(declaration, async (attrs, call) => {
  const content = contentAdapter(call, 'sync_counter');
  const ids = idsOf(attrs.ids);
  if (ids.length > 0) await content.syncCounters(ids);
  return {};
});
