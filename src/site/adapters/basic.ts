/**
 * The adapters a site answers from its folder and site.json alone: files (files/, through the
 * public TenantFiles), the site key of rcms_encrypt (data/site-key, made by `site init`) and named
 * secrets (secrets.json). Which members are super users (site.json super_users) is the members
 * family's (members.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TenantFiles, type HostAdapters, type SecretRecord } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import { ownTenant } from './own-tenant.js';

/** Storage limits of a local site: generous for development, still bounded. */
const FILE_LIMITS = { quotaBytes: 1 << 30, maxReadBytes: 64 << 20, maxEntries: 10_000 };

const stores = new WeakMap<SiteContext['db'], TenantFiles>();

/** The site's one file store (files/), also for the host's own work on it (backups). */
export function siteFileStore(ctx: SiteContext): TenantFiles {
  let files = stores.get(ctx.db);
  if (!files) stores.set(ctx.db, (files = new TenantFiles({ rootDir: path.join(ctx.dir, 'files'), ...FILE_LIMITS })));
  return files;
}

export function basicAdapters(ctx: SiteContext): Partial<HostAdapters> {
  const files = siteFileStore(ctx);
  const own = ownTenant(ctx);
  return {
    files: (tenant) => {
      own(tenant);
      return files;
    },
    crypto: {
      async siteKey(tenant) {
        own(tenant);
        return readFileSync(path.join(ctx.dir, 'data', 'site-key'));
      },
    },
    secrets: {
      async get(tenant, name) {
        own(tenant);
        return readSecrets(ctx.dir)[name] ?? null;
      },
    },
  };
}

/** secrets.json: { "NAME": { "value": "...", "hosts": ["api.example.com"] } }; absent: no secrets. */
function readSecrets(dir: string): Record<string, SecretRecord> {
  let text: string;
  try {
    text = readFileSync(path.join(dir, 'secrets.json'), 'utf8');
  } catch {
    return {};
  }
  const json = JSON.parse(text) as Record<string, SecretRecord>;
  return Object.assign(Object.create(null) as Record<string, SecretRecord>, json);
}
