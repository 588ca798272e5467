/** What a family's adapters and sample data are given: the site's folder, settings and database. */
import type { SiteConfig } from './config.js';
import type { SiteDatabase } from './db/database.js';

export interface SiteContext {
  readonly dir: string;
  readonly config: SiteConfig;
  readonly db: SiteDatabase;
  /** The tenant of every row and file of this site: its site_key. */
  readonly tenant: string;
}
