/**
 * The default batches of modules ({batch module=... name=...}): batches the platform brings, not
 * files of the site. The local site knows the one the spec names: topics' sync_counter, which
 * publishes the pending counters of the contents in ext_data.topics_ids (webanalytics hands its
 * updated_topics_ids on this way).
 */
const MODULE_BATCHES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  topics: {
    sync_counter: '{if $ext_data.topics_ids}{sync_counter ids=$ext_data.topics_ids}{/if}',
  },
};

export function moduleBatch(module: string, slug: string): string | undefined {
  return Object.hasOwn(MODULE_BATCHES, module) && Object.hasOwn(MODULE_BATCHES[module]!, slug)
    ? MODULE_BATCHES[module]![slug]
    : undefined;
}
