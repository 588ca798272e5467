import { defineFunction } from '../types.js';
import { MODULE_TYPES } from '../module-types.js';

export default defineFunction({
  kind: 'function',
  name: 'assign_new_comment_list',
  host: 'comments',
  summary:
    'The newest `cnt` open comments of an item (every item of the module type without `module_id`) into `var`, newest first; `new_order_flg=false` lists the same comments oldest first. ' +
    'Each has comment_id, module_type, module_id, member_id (null for a visitor), name, note and inst_ymdhi. Closed comments are never listed.',
  attrs: {
    module_id: { type: 'int', min: 1 },
    module_type: { type: 'string', enum: MODULE_TYPES, default: 'topics' },
    var: { type: 'varname', required: true },
    new_order_flg: { type: 'bool', default: true, doc: 'false: the same comments in ascending order.' },
    cnt: { type: 'int', default: 5, min: 1, max: 100, doc: 'How many of the newest comments.' },
  },
  examples: [
    {
      template:
        '{assign_new_comment_list module_id=1 cnt=2 var=list}{foreach from=$list item=c}{$c.name}: {$c.note}|{/foreach}',
      output:
        'はなこ: 英語版のドキュメントは来月公開予定だそうです。|ken_t: プレミアム会員向けの特典も楽しみにしています。|',
    },
    {
      template:
        '{assign_new_comment_list module_id=1 new_order_flg=false var=list}{foreach from=$list item=c}{$c.comment_id} {/foreach}',
      output: '3 4 5 6 8 ',
    },
  ],
});
