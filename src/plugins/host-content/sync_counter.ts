import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'sync_counter',
  host: 'content',
  summary:
    'Makes the pending counter values of these contents (from {increment_counter} and {update_counter}) visible in the contents, all in one transaction: if one write fails, none is applied. ' +
    'Contents of another site are skipped; at most 1000 IDs per call.',
  attrs: {
    ids: { type: 'mixed', required: true, doc: 'Content IDs: an array, or a comma-separated string ("1,2,3").' },
  },
  examples: [
    {
      template:
        '{update_counter value=500 topics_group_id=1 slug=7 ext_slug="view_count"}{sync_counter ids="7"}{assign_topics_detail var=t topics_id=7}{$t.view_count}',
      output: '500',
    },
  ],
});
