import type { AttrSpec } from '../types.js';

/** The attributes every archive plugin shares: the storage and the batch called back when the result is written. */
export const STORAGE_AND_CALLBACK: Record<string, AttrSpec> = {
  bucket: { type: 'string', doc: "Must be empty: only the site's own storage." },
  callback_batch: { type: 'string', doc: 'Batch (identifier) queued once the result is written.' },
  data: { type: 'mixed', doc: 'Passed to the callback batch (at most 64 KiB as JSON); needs callback_batch.' },
};
