import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'webanalytics',
  host: 'analytics',
  summary:
    "Runs a report of the site's web analytics property (runReport of a GA4-Data-API-compatible service, with the service account of the site's analytics settings) and sets a counter column of the contents it names. " +
    "Each row's dimension value (a page path or slug) names a content of `topics_group_id` by its last path segment (an ID or a slug); rows of one content add up, rounded. " +
    'Only contents in the response are set; `reset_flg=1` first sets the column of every content of the group to 0; an empty or failed report sets nothing. All in one transaction; pass `updated_topics_ids` to {sync_counter} through {batch} (ext_data.topics_ids). ' +
    'Without topics_group_id and update_column_slug only the report is read. `var` receives the report (dimension value => metric), or false when the service fails. At most 10000 rows.',
  attrs: {
    var: { type: 'varname', doc: 'Receives the report as an array dimension value => metric value, or false.' },
    updated_topics_ids: {
      type: 'varname',
      doc: 'Receives the IDs of the contents whose counters were set, ascending.',
    },
    update_column_slug: {
      type: 'string',
      maxLength: 200,
      doc: 'The counter column (ID or slug) of topics_group_id to set.',
    },
    update_column_index: { type: 'int', min: 0, default: 0, doc: 'Index in a repeating counter column.' },
    update_target_metric: { type: 'string', maxLength: 100, default: 'screenPageViews', doc: 'The metric counted.' },
    update_target_dimension: {
      type: 'string',
      maxLength: 100,
      default: 'pagePath',
      doc: 'The dimension that names the content (a page path or slug).',
    },
    topics_group_id: { type: 'int', min: 1, doc: 'The content group whose contents are set.' },
    startDate: {
      type: 'string',
      maxLength: 100,
      doc: 'First day (strtotime-readable, site time zone); default 7 days before.',
    },
    endDate: { type: 'string', maxLength: 100, doc: 'Last day (strtotime-readable); default today.' },
    queries: {
      type: 'string',
      maxLength: 10000,
      doc: 'A JSON object of further runReport fields: dimensionFilter, metricFilter, orderBys, keepEmptyRows, currencyCode.',
    },
    reset_flg: {
      type: 'int',
      default: 0,
      enum: ['0', '1'],
      doc: '1: set the column of every content of the group to 0 first.',
    },
  },
  examples: [
    {
      template:
        '{webanalytics var=report startDate="2023-11-01" endDate="2023-11-07"}{foreach from=$report key=path item=views}{$path}={$views} {/foreach}',
      output: '/news/detail/10=30 /news/news-11/=12 /news/detail/10?ref=mail=5 /about=7 ',
    },
  ],
});
