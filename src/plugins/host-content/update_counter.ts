import { defineFunction } from '../types.js';
import { COUNTER_RULES, counterAttrs } from './counter-attrs.js';

export default defineFunction({
  kind: 'function',
  name: 'update_counter',
  host: 'content',
  summary: `Sets a counter column of a content to \`value\`. ${COUNTER_RULES}`,
  attrs: counterAttrs('The value to set.'),
  examples: [
    {
      template: '{update_counter var=v value=10 topics_group_id=1 slug=6 ext_slug="reactions" index=2}{$v}',
      output: '10',
    },
  ],
});
