import { defineFunction } from '../types.js';
import { COUNTER_RULES, counterAttrs } from './counter-attrs.js';

export default defineFunction({
  kind: 'function',
  name: 'increment_counter',
  host: 'content',
  summary: `Adds \`value\` to a counter column of a content. ${COUNTER_RULES}`,
  attrs: counterAttrs('Amount to add (negative subtracts).'),
  examples: [
    {
      template: '{increment_counter var=v value=1 topics_group_id=1 slug="news-5" ext_slug="view_count"}{$v}',
      output: '136',
    },
  ],
});
