/**
 * `site init` of a site on an S3 bucket and a Redis batch queue (issue 34, item 5): the keys and
 * the Redis password are secrets named in site.json, read from the secrets source, never written
 * there; the sample files go into the bucket through the store; every backend is reached and
 * checked before anything is written, and a failure leaves nothing (folder, bucket) behind.
 * Runs its own s3rver and a redis-server with a password (as scripts/ci/redis.sh starts one).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { initSite, SiteInitError, type InitOptions } from '../../src/site/init.js';
import { readSiteConfig } from '../../src/site/config.js';
import { openSite } from '../../src/site/open-site.js';
import { siteQueue } from '../../src/site/batches/site-queue.js';
import { parseStorageUrl } from '../../src/site/init-backends.js';
import { S3_ACCESS_KEY, S3_SECRET_KEY, startS3, type TestS3 } from '../support/s3-server.js';

const PASSWORD = 'p@ss word/with:odd%chars';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const made: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(path.join(tmpdir(), 'smartcage-init-s3-'));
  made.push(d);
  return d;
};

describe('site init on S3 and Redis', () => {
  let s3: TestS3;
  let redis: ChildProcess;
  let redisUrl: string;
  let bucket: string;
  const secretsEnv = {
    SITE_T_S3_KEY: S3_ACCESS_KEY,
    SITE_T_S3_SECRET: S3_SECRET_KEY,
    SITE_T_REDIS_PASSWORD: PASSWORD,
  };

  beforeAll(async () => {
    s3 = await startS3();
    bucket = await s3.bucket();
    const port = await freePort();
    const dir = tmp();
    redis = spawn(
      'redis-server',
      ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--requirepass', PASSWORD],
      { stdio: 'ignore' },
    );
    redisUrl = `redis://127.0.0.1:${port}`;
    const probe = new Redis(redisUrl, { password: PASSWORD, lazyConnect: true, retryStrategy: () => 50 });
    probe.on('error', () => {});
    for (let i = 0; i < 100; i++) {
      try {
        await probe.connect();
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    await probe.ping();
    probe.disconnect();
    Object.assign(process.env, secretsEnv);
  });
  afterAll(async () => {
    for (const k of Object.keys(secretsEnv)) delete process.env[k];
    redis?.kill('SIGKILL');
    await s3?.close();
    made.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  const options = (prefix: string, over: Partial<InitOptions> = {}): InitOptions => ({
    siteKey: `s3-${prefix}`,
    storage: {
      type: 's3',
      endpoint: s3.endpoint,
      force_path_style: true,
      region: 'us-east-1',
      bucket,
      prefix,
      access_key_secret: 'S3_KEY',
      secret_key_secret: 'S3_SECRET',
    },
    batchQueue: redisUrl,
    batchQueuePasswordSecret: 'REDIS_PASSWORD',
    secrets: { env_prefix: 'SITE_T_' },
    ...over,
  });

  /** Init fails with one line, and nothing is left: no folder, no key below the prefix. */
  async function refused(dir: string, opts: InitOptions, message: RegExp): Promise<void> {
    const e = await initSite(dir, opts).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(SiteInitError);
    expect((e as Error).message).toMatch(message);
    expect((e as Error).message).not.toContain('\n');
    expect((e as Error).message).not.toContain(PASSWORD);
    expect(existsSync(dir)).toBe(false);
  }

  it('makes the site: secrets by name only, sample files in the bucket, the queue on Redis with its password', async () => {
    const dir = path.join(tmp(), 'site-a');
    await initSite(dir, options('site-a'));
    const text = readFileSync(path.join(dir, 'site.json'), 'utf8');
    for (const secret of [S3_SECRET_KEY, PASSWORD, 'p%40ss']) expect(text).not.toContain(secret);
    const config = readSiteConfig(dir);
    expect(config.storage).toMatchObject({ type: 's3', bucket, prefix: 'site-a', access_key_secret: 'S3_KEY' });
    expect([config.batch_queue, config.batch_queue_password_secret, config.secrets]).toEqual([
      redisUrl,
      'REDIS_PASSWORD',
      { env_prefix: 'SITE_T_' },
    ]);
    expect(await s3.rawGet(bucket, 'site-a/files/user/sample-page.html')).toContain('<!doctype html>');
    expect(existsSync(path.join(dir, 'files', 'user', 'sample-page.html'))).toBe(false);
    const site = await openSite(dir);
    try {
      // The queue connects with the password from the environment.
      const q = await siteQueue(site);
      const id = await q.enqueue({
        slug: 'notify',
        module: null,
        data: '[]',
        origin: 'batch',
        requestId: 'r1',
        depth: 0,
        dedupeKey: null,
      });
      expect(id).toBeGreaterThan(0);
      expect(await q.counts()).toEqual({ queued: 1, running: 0 });
    } finally {
      await site.close();
    }
  });

  it('refuses a prefix that already holds a site, and a Redis that holds the key, before writing', async () => {
    await refused(path.join(tmp(), 'again'), options('site-a', { siteKey: 'other' }), /already holds a site's files/);
    await refused(
      path.join(tmp(), 'again'),
      options('fresh-1', { siteKey: 's3-site-a' }),
      /Redis at .* already holds the batch queue of a site with the key "s3-site-a"/,
    );
  });

  it('refuses an unreachable bucket, a missing bucket, a missing secret, a wrong Redis password', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const o = options('p1');
    await refused(
      path.join(tmp(), 'x'),
      { ...o, storage: { ...o.storage!, endpoint: dead } },
      /^the bucket .* cannot be used \(.*\): create it, or fix the endpoint or the keys; nothing was written$/,
    );
    await refused(
      path.join(tmp(), 'x'),
      { ...o, storage: { ...o.storage!, bucket: 'no-such-bucket' } },
      /the bucket no-such-bucket .*cannot be used \(NoSuchBucket/,
    );
    await refused(
      path.join(tmp(), 'x'),
      { ...o, storage: { ...o.storage!, secret_key_secret: 'NOPE' } },
      /the secret "NOPE" is not in the environment \(SITE_T_NAME\)/,
    );
    await refused(path.join(tmp(), 'x'), { ...o, batchQueuePasswordSecret: undefined }, /Redis at .* cannot be used/);
    await refused(
      path.join(tmp(), 'x'),
      { ...o, batchQueue: `redis://127.0.0.1:${await freePort()}` },
      /Redis at .* cannot be used/,
    );
    await refused(
      path.join(tmp(), 'x'),
      { ...o, batchQueue: redisUrl.replace('//', `//:${encodeURIComponent(PASSWORD)}@`) },
      /must carry no password/,
    );
  });

  it('a failure after the files were written removes them from the bucket and the folder', async () => {
    const dir = path.join(tmp(), 'cut');
    await refused(
      dir,
      {
        ...options('cut'),
        onStep: () => {
          throw new SiteInitError('cut short');
        },
      },
      /cut short/,
    );
    expect(await s3.keys(bucket, 'cut/')).toEqual([]);
    // And the same command then works.
    await initSite(dir, options('cut'));
    expect(await s3.keys(bucket, 'cut/files/user/')).toContain('cut/files/user/sample-page.html');
  });

  it('a folder made ready beforehand (secrets.json) keeps what it had on a failure', async () => {
    const dir = path.join(tmp(), 'ready');
    mkdirSync(dir);
    writeFileSync(
      path.join(dir, 'secrets.json'),
      JSON.stringify({ S3_KEY: { value: S3_ACCESS_KEY }, S3_SECRET: { value: S3_SECRET_KEY } }),
    );
    const o = { ...options('ready'), secrets: undefined, batchQueue: null };
    const e = await initSite(dir, { ...o, storage: { ...o.storage!, bucket: 'no-such-bucket' } }).catch((x) => x);
    expect(e).toBeInstanceOf(SiteInitError);
    expect(readdirSync(dir)).toEqual(['secrets.json']);
    await initSite(dir, o);
    expect(readSiteConfig(dir).secrets).toBeUndefined();
    expect(await s3.rawGet(bucket, 'ready/files/user/sample-page.html')).toContain('<!doctype html>');
  });

  it('--storage URLs: s3://BUCKET/PREFIX', () => {
    expect(parseStorageUrl('s3://b1/sites/a/')).toEqual({ bucket: 'b1', prefix: 'sites/a' });
    expect(parseStorageUrl('s3://b1')).toEqual({ bucket: 'b1' });
    expect(() => parseStorageUrl('https://b1/x')).toThrow(/s3:\/\/BUCKET\/PREFIX/);
  });
});
