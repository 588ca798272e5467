import { defineFunction } from '../types.js';
import { MODULE_TYPES } from '../module-types.js';

export default defineFunction({
  kind: 'function',
  name: 'assign_favorite_cnt',
  host: 'favorites',
  summary:
    "How many favorites (likes, action type 0) an item has, or all items of the module type without `module_id`; everybody's, members' and visitors' alike. " +
    "`time` counts only those made since then: a strtotime text read against the render's clock in the site's time zone (`-7 days`, `2023-11-01`); one strtotime cannot read is E_BAD_ATTRIBUTE. " +
    '`format="list"` assigns instead an array module_id => count, the most favorited first (then the lower id), at most 1000 items.',
  attrs: {
    module_type: { type: 'string', enum: MODULE_TYPES, default: 'topics' },
    module_id: { type: 'int', min: 1 },
    var: { type: 'varname', required: true },
    time: { type: 'string', maxLength: 200, doc: 'Count favorites since this moment (strtotime).' },
    format: {
      type: 'string',
      enum: ['count', 'list'],
      default: 'count',
      doc: 'count: a number; list: counts per item.',
    },
  },
  examples: [
    {
      template:
        '{assign_favorite_cnt module_id=1 var=all}{assign_favorite_cnt module_id=1 time="-7 days" var=week}{$all} ({$week} this week)',
      output: '6 (4 this week)',
    },
    {
      template:
        '{assign_favorite_cnt format="list" var=counts}{foreach from=$counts key=id item=n}{$id}:{$n} {/foreach}',
      output: '1:6 2:4 3:2 5:1 7:1 8:1 ',
    },
  ],
});
