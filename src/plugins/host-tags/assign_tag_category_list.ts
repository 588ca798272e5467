import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'assign_tag_category_list',
  host: 'tags',
  summary:
    "The site's tag categories into `var`, each with tag_category_id, tag_category_nm (in `lang`), parent_tag_category_id (null at the top), order_no and level (0 at the top). " +
    'Flat: in tree order (a parent, then its children by order_no and id). With `tree_flg` only the top-level categories, each with `children` (the same shape, nested; at most 16 levels). ' +
    'A category whose parent is missing counts as top-level; one in a cycle of parents is not listed.',
  attrs: {
    var: { type: 'varname', required: true },
    lang: { type: 'string', maxLength: 8, doc: "A two-letter language code (default: the site's language)." },
    tree_flg: { type: 'bool', default: false, doc: 'Nest children under their parents.' },
  },
  examples: [
    {
      template:
        '{assign_tag_category_list var=cats}{foreach from=$cats item=c}{$c.level}:{$c.tag_category_nm} {/foreach}',
      output: '0:ジャンル 1:テクノロジー 2:AI・機械学習 0:地域 ',
    },
    {
      template:
        '{assign_tag_category_list var=cats tree_flg=true lang="en"}{foreach from=$cats item=c}{$c.tag_category_nm} ({$c.children|@count}) {/foreach}',
      output: 'Genre (1) Region (0) ',
    },
  ],
});
