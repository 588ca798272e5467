import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'assign_topics_category_list',
  host: 'content',
  summary:
    'Assigns the published categories of a content group, in display order: a list of topics_category_id, topics_group_id, category_nm, slug, category_parent_id and order_no. ' +
    "A category is published when it and every category above it are; a group that is missing or another site's gives an empty list.",
  attrs: {
    var: { type: 'varname', required: true },
    topics_group_id: { type: 'int', required: true, min: 1 },
    lang: { type: 'string', maxLength: 5, doc: "Language of category_nm (default: the site's)." },
  },
  examples: [
    {
      template:
        '{assign_topics_category_list var=c topics_group_id=1 lang="en"}{foreach from=$c item=x}{$x.category_nm};{/foreach}',
      output: 'Announcements;Events;Press releases;Webinars;',
    },
  ],
});
