/**
 * The default batches of modules ({batch module=... name=...}): batches the platform brings, not
 * files of the site. The local site knows the one the spec names: topics' sync_counter, which
 * publishes the pending counters of the contents in ext_data.topics_ids (webanalytics hands its
 * updated_topics_ids on this way); and spider's crawl, which a {kick_spider} outside a batch
 * queues to crawl the run history it made (D179).
 */
const MODULE_BATCHES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  topics: {
    sync_counter: '{if $ext_data.topics_ids}{sync_counter ids=$ext_data.topics_ids}{/if}',
  },
  spider: {
    crawl:
      '{kick_spider var=h spider_settings_id=$ext_data.spider_settings_id crawl_history_id=$ext_data.spider_history_id}{$h}',
  },
};

export function moduleBatch(module: string, slug: string): string | undefined {
  return Object.hasOwn(MODULE_BATCHES, module) && Object.hasOwn(MODULE_BATCHES[module]!, slug)
    ? MODULE_BATCHES[module]![slug]
    : undefined;
}
