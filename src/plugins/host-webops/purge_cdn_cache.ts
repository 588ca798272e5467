import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'purge_cdn_cache',
  host: 'http',
  summary:
    'Purges the CDN cache of one module: sends `PURGE <api_endpoint>` through the egress guard with a `Surrogate-Key` header naming what to purge ' +
    "(`all`, `topics`, `topics-<topics_group_id>`, `csvtable`, `csvtable-<csvtable_id>`). Without api_endpoint the site's configured purge endpoint is used, with its token (HostAdapters.cdn). " +
    'The spec gives no result variable: a purge that fails or is answered with a non-2xx status is a warning in the log; a refused endpoint (E_SSRF_DENIED, E_BAD_URL) is an error. Counts against the 100 requests a render of {api}.',
  attrs: {
    api_endpoint: {
      type: 'string',
      doc: "URL of the purge endpoint (http or https). Absent: the site's configured one (E_BAD_ATTRIBUTE when there is none).",
    },
    module: { type: 'string', required: true, enum: ['topics', 'csvtable', 'all'], doc: 'What to purge.' },
    topics_group_id: { type: 'int', min: 1, doc: 'With module="topics": only that content group.' },
    csvtable_id: { type: 'int', min: 1, doc: 'With module="csvtable": only that table.' },
  },
  examples: [
    {
      template: '{purge_cdn_cache api_endpoint="https://api.example.com/echo" module="topics" topics_group_id=1}purged',
      output: 'purged',
    },
    { template: '{purge_cdn_cache api_endpoint="https://api.example.com/echo" module="all"}purged', output: 'purged' },
  ],
});
