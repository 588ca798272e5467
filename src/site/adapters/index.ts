/**
 * The host adapters of a local site, one module per family, merged into the HostAdapters an
 * embedder would write. Each answers data only for `ctx.tenant` and refuses another tenant's
 * name (the engine never asks for one: identity.tenant is the site's key). A family adds its
 * module here.
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
