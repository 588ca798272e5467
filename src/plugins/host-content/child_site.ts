import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'child_site',
  host: 'childSites',
  summary:
    "Assigns a child site of this site: site_key, site_nm, url, lang, timezone, open_flg, inst_ymdhi. Only this site's own child sites are found; any other key gives null.",
  attrs: {
    site_key: { type: 'string', required: true, maxLength: 63 },
    var: { type: 'varname', required: true },
  },
  examples: [
    {
      template: '{child_site site_key="child" var=c}{$c.site_nm} {$c.url}',
      output: 'サポートサイト http://child.localhost:8080',
    },
  ],
});
