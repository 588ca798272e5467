import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'kick_spider',
  host: 'spider',
  summary:
    'Starts a crawl of the spider settings `spider_settings_id`, through the egress guard, whose pages go into a new run history; `var` receives the history id. ' +
    'Outside a batch, on a host with a batch queue, the crawl is queued as a run of the module batch spider/crawl and `smartcage batch run` crawls it (the history says running until it ends); in a batch, or with no queue, it runs inside the render. ' +
    "Settings that are not Enabled are not crawled: `var` is false and a warning is logged (spec). `target_urls` are crawled instead of the start URLs, and must lie in the settings' origins; `spider_history_id` re-executes that run (its target URLs, unless target_urls is given). " +
    "Bounds: the settings' max pages (at most 200 a render over all crawls) and depth (at most 5), 1 MiB a page, links followed within the start URLs' origins and the settings' allowed origins only, HTML only, and the render's wall time (the crawl stops 250 ms before it, recorded as stopped). Pages that fail are recorded with status 0 and their error code.",
  attrs: {
    var: {
      type: 'varname',
      required: true,
      doc: 'Receives the new history id (false when the settings are not Enabled).',
    },
    spider_settings_id: {
      type: 'int',
      required: true,
      min: 1,
      doc: 'The spider settings to run (E_NOT_FOUND when the site has none of that id).',
    },
    spider_history_id: {
      type: 'int',
      min: 1,
      doc: 'A run of these settings to execute again (E_NOT_FOUND otherwise).',
    },
    crawl_history_id: {
      type: 'int',
      min: 1,
      doc: 'In a batch only (E_PERMISSION_DENIED elsewhere): crawl the run history that a {kick_spider} outside a batch made and queued, instead of making one. The module batch spider/crawl passes it.',
    },
    target_urls: {
      type: 'array',
      doc: "URLs crawled instead of the start URLs (at most 100), each in one of the settings' origins (E_PERMISSION_DENIED otherwise).",
    },
  },
  examples: [
    { template: '{kick_spider var=h spider_settings_id=2}{if $h === false}not enabled{/if}', output: 'not enabled' },
  ],
});
