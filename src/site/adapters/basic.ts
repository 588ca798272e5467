/**
 * The adapters a site answers from its folder and site.json alone: files and their links
 * (storage.ts), the site key of rcms_encrypt (data/site-key, made by `site init`) and named
 * secrets (secrets.json). Which members are super users (site.json super_users) is the members
 * family's (members.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { HostAdapters, SecretRecord } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import { ownTenant } from './own-tenant.js';
import { siteStorage } from './storage.js';

export function basicAdapters(ctx: SiteContext): Partial<HostAdapters> {
  const own = ownTenant(ctx);
  const storage = siteStorage(ctx, (name) => readSecrets(ctx.dir)[name]?.value ?? null);
  return {
    files: (tenant) => {
      own(tenant);
      return storage.files;
    },
    storageUrls: storage.urls,
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
