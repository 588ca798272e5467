import type { AttrSpec } from '../types.js';

/** The attributes increment_counter and update_counter share (only `value` means something else). */
export function counterAttrs(valueDoc: string): Readonly<Record<string, AttrSpec>> {
  return {
    var: { type: 'varname', doc: "Receives the counter's new (pending) value." },
    value: { type: 'int', required: true, min: -1_000_000_000, max: 1_000_000_000, doc: valueDoc },
    topics_group_id: { type: 'int', required: true, min: 1 },
    slug: { type: 'string', required: true, maxLength: 200, doc: 'The content: its ID, or its slug.' },
    ext_slug: { type: 'string', required: true, maxLength: 200, doc: 'The counter column: its ID, or its slug.' },
    index: { type: 'int', min: 0, max: 999, doc: 'Repeating columns: which value (from 0; default 0).' },
  };
}

export const COUNTER_RULES =
  "The content must be one of topics_group_id and the column a counter column of that group (else E_NOT_FOUND, or E_BAD_ATTRIBUTE for a column of another type or an index past the column's repeats). " +
  'The write goes to the pending counters in one atomic step; contents show it after {sync_counter}.';
