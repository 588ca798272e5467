import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'site_sync',
  host: 'siteSync',
  summary:
    'Copies one site of the host into another: `sync_type` 1 the app design, 2 everything (the app design and the contents), 4 the app design without the tag definitions (what each covers: docs/site.md, "Site sync"). ' +
    "Both sites must be sites of this host (E_NOT_FOUND otherwise), each the render's own site, one of its child sites or its parent site (E_PERMISSION_DENIED otherwise), and they must differ (E_BAD_ATTRIBUTE). " +
    'Refused within 6 hours of the last completed sync into the same site (E_RATE_LIMIT). A sync that fails changes nothing in the target and ends the render.',
  attrs: {
    from_site_key: { type: 'string', required: true, doc: 'The site to copy from.' },
    to_site_key: { type: 'string', doc: "The site to copy into. Default: the render's own site." },
    sync_type: {
      type: 'int',
      required: true,
      enum: ['1', '2', '4'],
      doc: '1 app design, 2 full, 4 app design excluding tags.',
    },
  },
  examples: [
    { template: '{site_sync from_site_key="child" sync_type=1}design copied', output: 'design copied' },
    {
      template: '{site_sync from_site_key="default" to_site_key="child" sync_type=4}pushed to the child site',
      output: 'pushed to the child site',
    },
  ],
});
