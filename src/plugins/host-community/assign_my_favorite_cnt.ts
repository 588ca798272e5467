import { defineFunction } from '../types.js';
import { MODULE_TYPES } from '../module-types.js';

export default defineFunction({
  kind: 'function',
  name: 'assign_my_favorite_cnt',
  host: 'favorites',
  summary:
    "How many items of the module type the render's member marked (with `module_id`: 1 if they marked that item, else 0). Always the member of the render, never one named by an attribute; 0 without a logged-in member. " +
    "`cookie_flg=1` counts instead the favorites a visitor's browser keeps under the id in the cookie `rcms_favorite_id` (needs the host's cookie jar; 0 without the cookie and in batches).",
  attrs: {
    module_type: { type: 'string', enum: MODULE_TYPES, default: 'topics' },
    module_id: { type: 'int', min: 1 },
    var: { type: 'varname', required: true },
    cookie_flg: { type: 'int', min: 0, max: 1, default: 0, doc: '1: the favorites of this browser (cookie-managed).' },
    action_type: {
      type: 'string',
      default: '0',
      maxLength: 9,
      doc: 'The kind of mark, digits only: 0 like (default).',
    },
  },
  examples: [
    {
      template:
        '{assign_my_favorite_cnt var=likes}{assign_my_favorite_cnt action_type="1" var=marks}{assign_my_favorite_cnt module_id=4 var=four}{$likes} {$marks} {$four}',
      memberId: 2,
      output: '5 2 0',
    },
    { template: '{assign_my_favorite_cnt var=n}{$n}', output: '0' },
  ],
});
