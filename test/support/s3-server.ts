/**
 * A real S3-compatible server for tests: npm s3rver (pure JS) on 127.0.0.1, over a temporary
 * folder, in a child process (s3rver-process.mjs says why), with the SDK client the tests use to
 * look at what the store wrote. s3rver accepts any credentials, ignores conditional writes and
 * keeps no ACL; the tests that need the ACL look at the requests the store sends.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { S3Files, type S3FilesOptions } from '../../src/host-adapters/files/s3/s3-files.js';

export const S3_ACCESS_KEY = 'S3RVER';
export const S3_SECRET_KEY = 'S3RVER';

export interface TestS3 {
  endpoint: string;
  client: S3Client;
  /** A fresh bucket with a unique name. */
  bucket(): Promise<string>;
  /** A store on `bucket` under `prefix`, with the test limits unless given (singleProcess unless given). */
  files(bucket: string, prefix: string, o?: Partial<S3FilesOptions>): S3Files;
  /** Write a key directly, around any store (a key another program or a hostile tenant wrote). */
  rawPut(bucket: string, key: string, body: string | Uint8Array): Promise<void>;
  rawGet(bucket: string, key: string): Promise<string | null>;
  keys(bucket: string, prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

let n = 0;

export async function startS3(): Promise<TestS3> {
  const dir = mkdtempSync(join(tmpdir(), 'smartcage-s3rver-'));
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', join(dirname(fileURLToPath(import.meta.url)), 's3rver-process.mjs'), dir],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code})`)));
    createInterface({ input: child.stdout! }).once('line', (line) =>
      resolve((JSON.parse(line) as { port: number }).port),
    );
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: S3_ACCESS_KEY, secretAccessKey: S3_SECRET_KEY },
  });
  return {
    endpoint,
    client,
    async bucket() {
      const name = `test-${process.pid}-${++n}`;
      await client.send(new CreateBucketCommand({ Bucket: name }));
      return name;
    },
    files(bucket, prefix, o = {}) {
      return new S3Files({
        endpoint,
        region: 'us-east-1',
        bucket,
        prefix,
        forcePathStyle: true,
        accessKeyId: S3_ACCESS_KEY,
        secretAccessKey: S3_SECRET_KEY,
        quotaBytes: 10 * 1024 * 1024,
        maxReadBytes: 1024 * 1024,
        maxEntries: 1000,
        // One test process: s3rver ignores conditional writes, and most tests give no shared lock.
        singleProcess: true,
        ...o,
      });
    },
    async rawPut(bucket, key, body) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    },
    async rawGet(bucket, key) {
      try {
        const r = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return (await r.Body?.transformToString()) ?? '';
      } catch {
        return null;
      }
    },
    async keys(bucket, prefix = '') {
      const out: string[] = [];
      let token: string | undefined;
      do {
        const r = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        out.push(...(r.Contents ?? []).map((c) => c.Key ?? ''));
        token = r.IsTruncated ? r.NextContinuationToken : undefined;
      } while (token);
      return out.sort();
    },
    async close() {
      client.destroy();
      const exited = new Promise((r) => child.once('exit', r));
      child.stdin!.end();
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Turn a sample site folder into one whose storage is `bucket` on `s3`, credentials by secret name. */
export function useS3Storage(dir: string, s3: TestS3, bucket: string): void {
  const file = join(dir, 'site.json');
  const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  json.storage = {
    type: 's3',
    endpoint: s3.endpoint,
    region: 'us-east-1',
    bucket,
    prefix: 'site',
    access_key_secret: 'S3_KEY',
    secret_key_secret: 'S3_SECRET',
    force_path_style: true,
  };
  writeFileSync(file, JSON.stringify(json));
  writeFileSync(
    join(dir, 'secrets.json'),
    JSON.stringify({ S3_KEY: { value: S3_ACCESS_KEY }, S3_SECRET: { value: S3_SECRET_KEY } }),
  );
}
