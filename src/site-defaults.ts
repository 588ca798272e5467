/**
 * The site settings a render has when nobody gives one: the platform's time zone, language and
 * root URL. Their one home: the engine (a tenant without its own), the bridge's default clock,
 * the sandbox's warm-up render, `smartcage render` and a local site (site.json's `root_url`, and
 * what `smartcage site init` writes) all read them here, through the package entry for the site.
 */
import type { SiteSettings } from './plugins/types.js';

export const SITE_DEFAULTS: Readonly<SiteSettings> = Object.freeze({
  timezone: 'Asia/Tokyo',
  lang: 'ja',
  rootUrl: 'http://localhost',
});
