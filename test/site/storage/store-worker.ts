/**
 * One "node" of the cross-process storage tests (cross-process.test.ts), run as its own process
 * (`node --import tsx store-worker.ts JOB`): it opens the store as a serve node would, does its
 * share of the work with a few calls in flight, and prints one JSON line of what was
 * acknowledged. JOB is JSON:
 *  - `site-append`: openSite(dir), append `<tag>-<i>\n` for i < count to `path` in the site's storage;
 *  - `store-write`: S3Files on the site database's shared locks and usage with quota `quotaBytes`,
 *    write `count` files of `size` bytes under /files/user/q/<tag>-<i>;
 */
import path from 'node:path';
import { parseVirtualPath, S3Files, type FileStore } from '../../../src/index.js';
import { FileError } from '../../../src/host-adapters/files/errors.js';
import { openDatabase } from '../../../src/site/db/database.js';
import { databaseLocks, databaseUsage } from '../../../src/site/db/store-coordination.js';
import { siteFiles } from '../../../src/site/adapters/basic.js';
import { openSite } from '../../../src/site/open-site.js';

interface S3 {
  endpoint: string;
  bucket: string;
  prefix: string;
}
type Job =
  | { kind: 'site-append'; dir: string; path: string; tag: string; count: number }
  | {
      kind: 'store-write';
      db: { url: string | null; sqlitePath: string };
      tenant: string;
      s3: S3;
      quotaBytes: number;
      tag: string;
      count: number;
      size: number;
    };

const IN_FLIGHT = 4;

function s3Files(s3: S3, extra: Partial<ConstructorParameters<typeof S3Files>[0]>): S3Files {
  return new S3Files({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    bucket: s3.bucket,
    prefix: s3.prefix,
    forcePathStyle: true,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    quotaBytes: 1 << 30,
    maxReadBytes: 1 << 20,
    maxEntries: 10_000,
    ...extra,
  });
}

/** Runs `op(i)` for i < count, IN_FLIGHT at a time: the indexes acknowledged and the codes of the rest. */
async function each(count: number, op: (i: number) => Promise<void>): Promise<{ acked: number[]; failed: string[] }> {
  const acked: number[] = [];
  const failed: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) {
        const i = next++;
        try {
          await op(i);
          acked.push(i);
        } catch (e) {
          failed.push(e instanceof FileError ? `${e.code}:${e.reason}` : String(e));
        }
      }
    }),
  );
  return { acked, failed };
}

const append = (files: FileStore, p: string, tag: string, count: number) =>
  each(count, (i) => files.appendRecord(parseVirtualPath(p), new TextEncoder().encode(`${tag}-${i}\n`)));

const job = JSON.parse(process.argv[2]!) as Job;
let out: { acked: number[]; failed: string[] };
if (job.kind === 'site-append') {
  const site = await openSite(path.resolve(job.dir));
  try {
    out = await append(siteFiles(site), job.path, job.tag, job.count);
  } finally {
    await site.close();
  }
} else {
  const db = await openDatabase(job.db);
  try {
    const files = s3Files(job.s3, {
      quotaBytes: job.quotaBytes,
      locks: databaseLocks(db, job.tenant),
      usage: databaseUsage(db, job.tenant),
    });
    out = await each(job.count, (i) =>
      files.writeAtomic(parseVirtualPath(`/files/user/q/${job.tag}-${i}`), new Uint8Array(job.size).fill(65)),
    );
  } finally {
    await db.close();
  }
}
process.stdout.write(JSON.stringify(out) + '\n');
