/**
 * The site's storage, as site.json `storage` names it: the folder `files/` (TenantFiles) or an
 * S3-compatible bucket (S3Files, credentials from secrets.json by name), and how {storage_url}
 * links to it: presigned by the bucket, or HMAC links under root_url signed with a key derived
 * from the site key (data/site-key) for the folder. A bucket's path locks and usage count are
 * the site database's (db/store-coordination.ts), shared by every process serving the site.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { S3Files, TenantFiles, type FileStore, type HostAdapters } from '../../index.js';
import { SiteConfigError } from '../config.js';
import type { SiteContext } from '../site-context.js';
import { databaseLocks, databaseUsage } from '../db/store-coordination.js';

/** Storage limits of a site: generous for development, still bounded. */
const SITE_FILE_LIMITS = { quotaBytes: 1 << 30, maxReadBytes: 64 << 20, maxEntries: 10_000 };

export interface SiteStorage {
  files: FileStore;
  urls: NonNullable<HostAdapters['storageUrls']>;
  /** Settles once the storage knows how it keeps writers apart; rejects when it cannot (the site does not open). */
  ready(): Promise<void>;
}

export function siteStorage(ctx: SiteContext, secret: (name: string) => string | null): SiteStorage {
  const cfg = ctx.config.storage;
  if (cfg.type === 's3') {
    const need = (name: string): string => {
      const v = secret(name);
      if (!v)
        throw new SiteConfigError(`site.json storage names the secret "${name}", which secrets.json does not hold`);
      return v;
    };
    const files = new S3Files({
      endpoint: cfg.endpoint,
      region: cfg.region,
      bucket: cfg.bucket,
      prefix: cfg.prefix,
      forcePathStyle: cfg.force_path_style,
      accessKeyId: need(cfg.access_key_secret),
      secretAccessKey: need(cfg.secret_key_secret),
      ...SITE_FILE_LIMITS,
      locks: databaseLocks(ctx.db, ctx.tenant),
      usage: databaseUsage(ctx.db, ctx.tenant),
    });
    return {
      files,
      urls: {
        presign: (p, expires) => {
          return files.presignGet(p, Math.max(1, expires - Math.floor(Date.now() / 1000)));
        },
      },
      ready: async () => {
        await files.open();
      },
    };
  }
  return {
    files: new TenantFiles({ rootDir: path.join(ctx.dir, 'files'), ...SITE_FILE_LIMITS }),
    urls: {
      baseUrl: () => {
        return ctx.config.root_url;
      },
      signingKey: async () => {
        return createHmac('sha256', readFileSync(path.join(ctx.dir, 'data', 'site-key')))
          .update('storage-url')
          .digest();
      },
    },
    ready: async () => {},
  };
}
