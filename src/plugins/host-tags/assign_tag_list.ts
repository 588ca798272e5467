import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'assign_tag_list',
  host: 'tags',
  summary:
    "The tags of one tag category into `var` (not those of its child categories), each with tag_id, tag_nm (in the site's language), tag_category_id, open_contents_cnt, order_no and inst_ymdhi. " +
    'Default order: order_no, then tag_id. `order` names columns among tag_id, tag_nm, tag_category_id, open_contents_cnt, order_no, inst_ymdhi, each optionally `:asc` or `:desc`: ' +
    'a string (`open_contents_cnt:desc`, several separated by commas) or an array of such strings or of column => direction; at most 5. Any other column or direction is E_BAD_ATTRIBUTE.',
  attrs: {
    var: { type: 'varname', required: true },
    category_id: { type: 'int', required: true, min: 1 },
    order: { type: 'mixed', doc: 'A string or an array (see above); ties end in tag_id ascending.' },
  },
  examples: [
    {
      template:
        '{assign_tag_list category_id=1 var=tags}{foreach from=$tags item=t}{$t.tag_nm}:{$t.open_contents_cnt} {/foreach}',
      output: 'お知らせ:7 イベント:6 プレスリリース:6 キャンペーン:8 ',
    },
    {
      template:
        '{assign_tag_list category_id=1 order="open_contents_cnt:desc" var=tags}{foreach from=$tags item=t}{$t.tag_nm}:{$t.open_contents_cnt} {/foreach}',
      output: 'キャンペーン:8 お知らせ:7 イベント:6 プレスリリース:6 ',
    },
  ],
});
