/**
 * The adapters a site answers from its folder and site.json alone: files and their links
 * (storage.ts), the site key of rcms_encrypt (data/site-key, made by `site init`) and named
 * secrets (secrets.json). Which members are super users (site.json super_users) is the members
 * family's (members.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FileStore, HostAdapters, SecretRecord } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import { ownTenant } from './own-tenant.js';
import { siteStorage, type SiteStorage } from './storage.js';

const STORES = new WeakMap<SiteContext, SiteStorage>();

/** The site's one storage (files/ or its bucket) and its links, shared by the families that read its files. */
function storageOf(ctx: SiteContext): SiteStorage {
  let storage = STORES.get(ctx);
  if (!storage) {
    storage = siteStorage(ctx, (name) => readSecrets(ctx.dir)[name]?.value ?? null);
    STORES.set(ctx, storage);
  }
  return storage;
}

/** The site's file store, as every family reads it, also for the host's own work on it (backups). */
export function siteFiles(ctx: SiteContext): FileStore {
  return storageOf(ctx).files;
}

export function basicAdapters(ctx: SiteContext): Partial<HostAdapters> {
  const own = ownTenant(ctx);
  const storage = storageOf(ctx);
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
export function readSecrets(dir: string): Record<string, SecretRecord> {
  let text: string;
  try {
    text = readFileSync(path.join(dir, 'secrets.json'), 'utf8');
  } catch {
    return {};
  }
  const json = JSON.parse(text) as Record<string, SecretRecord>;
  return Object.assign(Object.create(null) as Record<string, SecretRecord>, json);
}
