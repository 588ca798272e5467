/** {child_site}: a child site of the render's tenant (the adapter knows no other site's), or null. A read (D271). */
import { implementRead } from '../read-plugin.js';
import { wait } from '../../host-api/now-or-later.js';
import { PhpArray } from '../../value/value.js';
import { phpDate } from '../../php/date/date.js';
import { inLang } from '../data-attrs.js';
import declaration from '../../plugins/host-content/child_site.js';

export const childSite = implementRead(declaration, function* (attrs, call, adapter) {
  const site = yield* wait(adapter.childSite(String(attrs.site_key)));
  const value = site
    ? PhpArray.fromEntries([
        ['site_key', site.siteKey],
        ['site_nm', inLang(site.names, call.render.lang, site.lang) ?? ''],
        ['url', site.url],
        ['lang', site.lang],
        ['timezone', site.timezone],
        ['open_flg', site.openFlg ? 1 : 0],
        ['inst_ymdhi', phpDate('c', site.instAt, call.render.timezone)],
      ])
    : null;
  return { assign: [[String(attrs.var), value]] };
});
