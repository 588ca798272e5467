import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'assign_topics_detail',
  host: 'content',
  summary:
    'Assigns one content in the shape of the content API\'s details (topics_id, topics_group_id, subject, contents, ymd, inst_ymdhi, update_ymdhi, open_flg, contents_type and its names, extended columns by slug; docs/site.md, "Content"). ' +
    "With chk_open_flg (the default) only a content that is open now (its open flag set and the render's clock within its open/close dates) is found; a content that is missing, closed or another site's gives null. " +
    "The platform's older alias `id` of topics_id is not accepted (attributes have no aliases here).",
  attrs: {
    var: { type: 'varname', required: true, doc: 'Receives the content, or null.' },
    topics_id: { type: 'int', required: true, min: 1 },
    lang: {
      type: 'string',
      maxLength: 5,
      doc: "Language of subject, contents and names (default: the site's); a text missing in it falls back to the site's language.",
    },
    chk_open_flg: { type: 'bool', default: true, doc: 'false: closed contents are found too.' },
  },
  examples: [
    {
      template:
        '{assign_topics_detail var=t topics_id=1 lang="en"}{$t.subject} ({$t.contents_type_nm}, {$t.ymd}) views: {$t.view_count}',
      output: 'Our new website is live (Announcements, 2023-10-01) views: 107',
    },
    { template: '{assign_topics_detail var=t topics_id=26}{if $t}open{else}not open{/if}', output: 'not open' },
    {
      template:
        '{assign_topics_detail var=t topics_id=26 chk_open_flg=false lang="en"}{$t.subject} open_flg={$t.open_flg}',
      output: '[Draft] Our 2024 roadmap open_flg=0',
    },
  ],
});
