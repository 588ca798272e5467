import { defineFunction } from '../types.js';
import { MODULE_TYPES } from '../module-types.js';

export default defineFunction({
  kind: 'function',
  name: 'assign_relation_tag_list',
  host: 'tags',
  summary:
    "The tags an item carries (a content by default), in their order, into `var`: a list of tag items, each with id, tag_nm (in the site's language), tag_category_id and tag_category_nm. " +
    '`tag_relation_list` (a list of arrays each with an integer `id`, at most 1000: what this plugin assigns, or the tags of an API response) takes the place of the stored relations; ' +
    'ids that are not tags of this site are left out, as are repeats. `tag_category_id` keeps the tags of that category only.',
  attrs: {
    module: { type: 'string', enum: MODULE_TYPES, default: 'topics', doc: 'The kind of item.' },
    module_id: { type: 'int', required: true, min: 1 },
    var: { type: 'varname', required: true },
    tag_category_id: { type: 'int', min: 1 },
    tag_relation_list: { type: 'array', doc: 'Tag items ([{id: 3}, ...]) to use instead of the stored relations.' },
  },
  examples: [
    {
      template:
        '{assign_relation_tag_list module_id=5 var=tags}{foreach from=$tags item=t}#{$t.id} {$t.tag_nm} {/foreach}',
      output: '#1 お知らせ #6 大阪 #8 クラウド ',
    },
    {
      template:
        '{assign_relation_tag_list module_id=5 tag_category_id=2 var=tags}{$tags.0.tag_category_nm}: {$tags.0.tag_nm}',
      output: '地域: 大阪',
    },
  ],
});
