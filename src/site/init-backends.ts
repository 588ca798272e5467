/**
 * What `site init` checks of an S3 bucket and a Redis batch queue before it writes anything, and
 * how it removes what it wrote to the bucket when a later step fails (init.ts). The rule is the
 * database's (tenant-rows.ts): a place that already holds a site's data is refused rather than
 * shared, which is also what makes the undo safe (everything below the prefix is init's own).
 *
 * The credentials are secrets NAMED in site.json and read from the site's secrets source
 * (adapters/secrets.ts); a name the source does not hold is refused here, with the name.
 */
import type { S3StorageConfig, SecretsSource } from './config.js';
import { readSecrets } from './adapters/secrets.js';
import type { S3Client } from '@aws-sdk/client-s3';

/** A backend init cannot use; the message is the middle of init's one line. */
export class BackendProblem extends Error {}

/** How long one check may wait for an answer. */
const CHECK_MS = 5000;

/** `s3://bucket/prefix` of `site init --storage`: the bucket and the site's key prefix (none: the whole bucket). */
export function parseStorageUrl(url: string): { bucket: string; prefix?: string } {
  const m = /^s3:\/\/([^/?#]+)(?:\/([^?#]*))?$/.exec(url);
  if (!m) throw new BackendProblem(`--storage must be s3://BUCKET/PREFIX (got ${JSON.stringify(url.slice(0, 80))})`);
  const prefix = (m[2] ?? '').replace(/\/+$/, '');
  return prefix === '' ? { bucket: m[1]! } : { bucket: m[1]!, prefix };
}

function where(source: SecretsSource | undefined): string {
  if (!source) return 'secrets.json in the site folder';
  return 'env_prefix' in source ? `the environment (${source.env_prefix}NAME)` : `the secrets file ${source.file}`;
}

/** The value of each named secret; BackendProblem naming the first the source does not hold. */
export function namedSecrets(dir: string, source: SecretsSource | undefined, names: readonly string[]): string[] {
  const secrets = readSecrets(dir, source);
  return names.map((name) => {
    const v = secrets[name]?.value;
    if (v === undefined || v === '') throw new BackendProblem(`the secret "${name}" is not in ${where(source)}`);
    return v;
  });
}

type Sdk = typeof import('@aws-sdk/client-s3');

/** An S3 client for the checks (the SDK is an optional dependency, as for S3Files). */
async function clientOf(
  dir: string,
  cfg: S3StorageConfig,
  source: SecretsSource | undefined,
): Promise<{ sdk: Sdk; client: S3Client }> {
  const [accessKeyId, secretAccessKey] = namedSecrets(dir, source, [cfg.access_key_secret, cfg.secret_key_secret]);
  let sdk: Sdk;
  try {
    sdk = await import('@aws-sdk/client-s3');
  } catch {
    throw new BackendProblem('S3 storage needs the optional dependency @aws-sdk/client-s3: install it');
  }
  const client = new sdk.S3Client({
    region: cfg.region,
    endpoint: cfg.endpoint,
    forcePathStyle: cfg.force_path_style ?? false,
    credentials: { accessKeyId: accessKeyId!, secretAccessKey: secretAccessKey! },
    maxAttempts: 1,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { requestTimeout: CHECK_MS, connectionTimeout: CHECK_MS },
  });
  return { sdk, client };
}

/** Where S3Files keeps the site's files: `<prefix>/files/` (its keys.ts), or `files/` for the whole bucket. */
const filesPrefix = (cfg: S3StorageConfig) => {
  const p = (cfg.prefix ?? '').replace(/\/+$/, '');
  return p === '' ? 'files/' : `${p}/files/`;
};

/** An S3 failure in a few words: the service's error name and status, never a key or a credential. */
function s3Reason(e: unknown): string {
  const o = (typeof e === 'object' && e !== null ? e : {}) as {
    name?: unknown;
    code?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  const name = typeof o.code === 'string' ? o.code : typeof o.name === 'string' ? o.name : 'Error';
  const status = o.$metadata?.httpStatusCode;
  return `${name.replace(/[^A-Za-z0-9_]/g, '').slice(0, 60)}${status ? ` (HTTP ${status})` : ''}`;
}

/** The bucket answers with these credentials, and holds no file of a site below the prefix. */
export async function checkBucket(dir: string, cfg: S3StorageConfig, source: SecretsSource | undefined): Promise<void> {
  const { sdk, client } = await clientOf(dir, cfg, source);
  try {
    let used: boolean;
    try {
      const r = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: cfg.bucket, Prefix: filesPrefix(cfg), MaxKeys: 1 }),
      );
      used = (r.Contents?.length ?? 0) > 0;
    } catch (e) {
      throw new BackendProblem(
        `the bucket ${cfg.bucket}${cfg.endpoint ? ` at ${cfg.endpoint}` : ''} cannot be used (${s3Reason(e)}): create it, or fix the endpoint or the keys`,
      );
    }
    if (used)
      throw new BackendProblem(
        `the bucket ${cfg.bucket} already holds a site's files below ${filesPrefix(cfg)}: choose another prefix`,
      );
  } finally {
    client.destroy();
  }
}

/** Deletes every key init wrote below the prefix (checkBucket found none there before). */
export async function emptyBucketPrefix(
  dir: string,
  cfg: S3StorageConfig,
  source: SecretsSource | undefined,
): Promise<void> {
  const { sdk, client } = await clientOf(dir, cfg, source);
  try {
    let token: string | undefined;
    do {
      const r = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: cfg.bucket, Prefix: filesPrefix(cfg), ContinuationToken: token }),
      );
      for (const o of r.Contents ?? [])
        if (o.Key !== undefined) await client.send(new sdk.DeleteObjectCommand({ Bucket: cfg.bucket, Key: o.Key }));
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
  } finally {
    client.destroy();
  }
}

/** The queue names of BullMQ for a site key (bullmq-queue.ts: prefix `smartcage`, queue `smartcage-batch-KEY`). */
const queueKeys = (key: string) => `smartcage:smartcage-batch-${key}:*`;

/** Redis answers PING at `url` (with its password), and holds no batch queue of `key`. */
export async function checkRedis(url: string, shown: string, key: string): Promise<void> {
  let Redis: typeof import('ioredis').Redis;
  try {
    ({ Redis } = await import('ioredis'));
  } catch {
    throw new BackendProblem('a Redis batch queue needs the optional dependencies bullmq and ioredis: install them');
  }
  const r = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: CHECK_MS,
    retryStrategy: () => null,
  });
  r.on('error', () => {});
  try {
    try {
      await r.connect();
      await r.ping();
    } catch (e) {
      throw new BackendProblem(
        `Redis at ${shown} cannot be used (${(e as Error).message.split('\n')[0]}): start it, or fix --batch-queue or its password`,
      );
    }
    let cursor = '0';
    do {
      const [next, found] = await r.scan(cursor, 'MATCH', queueKeys(key), 'COUNT', 1000);
      if (found.length > 0)
        throw new BackendProblem(
          `Redis at ${shown} already holds the batch queue of a site with the key "${key}": choose another --site-key`,
        );
      cursor = next;
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
}
