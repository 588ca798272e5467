/**
 * Sample spider settings: 1 "Site search" (Enabled) crawls the site's own root URL two links deep;
 * 2 "Old blog" (Disabled) is not crawled. No runs yet: {kick_spider} numbers them from 1.
 */
import type { SiteContext } from '../site-context.js';
import { insertRows } from './rows.js';

export async function spiderSample(ctx: SiteContext): Promise<void> {
  const root = `${ctx.config.root_url}/`;
  await insertRows(
    ctx.db,
    ctx.tenant,
    'spider_settings',
    ['spider_settings_id', 'name', 'status', 'start_urls', 'allowed_origins', 'max_pages', 'max_depth'],
    [
      [1, 'Site search', 'Enabled', JSON.stringify([root]), '[]', 50, 2],
      [2, 'Old blog', 'Disabled', JSON.stringify([`${ctx.config.root_url}/blog/`]), '[]', 20, 1],
    ],
  );
}
