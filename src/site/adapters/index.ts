/**
 * The host adapters of a local site, one module per family, merged into the HostAdapters an
 * embedder would write: built once from the SiteContext, they are the site's tenant's
 * (`ctx.tenant`, the site key) and take no tenant; the engine gives them to that site's renders
 * only (TenantSettings.host). A family adds its module here.
 */
import type { HostAdapters } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import { basicAdapters } from './basic.js';
import { contentAdapters } from './content.js';
import { sessionAdapters } from './sessions.js';
import { apiAdapters } from './api.js';
import { membersAdapters } from './members.js';
import { tagsAdapters } from './tags.js';
import { communityAdapters } from './community.js';
import { documentsAdapters } from './documents.js';
import { webopsAdapters } from './webops.js';
import { mailAdapters } from './mail.js';
import { syncAdapters } from './sync.js';

type FamilyAdapters = (ctx: SiteContext) => Partial<HostAdapters>;

import { batchesAdapters } from './batches.js';
import { backupsAdapters } from './backups.js';
import { integrationAdapters } from './integrations.js';
const FAMILIES: readonly FamilyAdapters[] = [
  basicAdapters,
  contentAdapters,
  membersAdapters,
  tagsAdapters,
  communityAdapters,
  sessionAdapters,
  apiAdapters,
  documentsAdapters,
  webopsAdapters,
  mailAdapters,
  syncAdapters,
  batchesAdapters,
  backupsAdapters,
  integrationAdapters,
];

export function siteAdapters(ctx: SiteContext): HostAdapters {
  const host: HostAdapters = {};
  for (const family of FAMILIES) Object.assign(host, family(ctx));
  return host;
}
