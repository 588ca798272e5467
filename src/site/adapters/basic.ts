/**
 * The adapters a site answers from its folder and site.json alone: files and their links
 * (storage.ts), the site key of rcms_encrypt (data/site-key, made by `site init`) and named
 * secrets (secrets.ts: secrets.json, a file or the environment). Which members are super users
 * (site.json super_users) is the members family's (members.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FileStore, HostAdapters } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import { siteStorage, type SiteStorage } from './storage.js';
import { readSecrets } from './secrets.js';

const STORES = new WeakMap<SiteContext, SiteStorage>();

/** The site's one storage (files/ or its bucket) and its links, shared by the families that read its files. */
function storageOf(ctx: SiteContext): SiteStorage {
  let storage = STORES.get(ctx);
  if (!storage) {
    storage = siteStorage(ctx, (name) => readSecrets(ctx.dir, ctx.config.secrets)[name]?.value ?? null);
    STORES.set(ctx, storage);
  }
  return storage;
}

/** Settles once the site's storage is usable by several processes (the S3 probe); the site refuses to open otherwise. */
export function siteStorageReady(ctx: SiteContext): Promise<void> {
  return storageOf(ctx).ready();
}

/** The site's file store, as every family reads it, also for the host's own work on it (backups). */
export function siteFiles(ctx: SiteContext): FileStore {
  return storageOf(ctx).files;
}

export function basicAdapters(ctx: SiteContext): Partial<HostAdapters> {
  const storage = storageOf(ctx);
  return {
    files: storage.files,
    storageUrls: storage.urls,
    crypto: {
      async siteKey() {
        return readFileSync(path.join(ctx.dir, 'data', 'site-key'));
      },
    },
    secrets: {
      async get(name) {
        return readSecrets(ctx.dir, ctx.config.secrets)[name] ?? null;
      },
    },
  };
}
