/**
 * Several processes on one S3 bucket (s3rver) and one site database: the case of issue 34, where
 * 60 appends over 3 nodes kept 3-35 lines. Each process is store-worker.ts in a child process of
 * its own, so nothing it holds in memory (locks, counts) is shared but through the database.
 *  - appends through openSite (site.json storage on S3): every acknowledged record is in the file
 *    exactly once, and none is refused;
 *  - the quota across processes: what all of them were acknowledged stays within the one limit,
 *    and removing the files gives the space back.
 * (Appends by conditional writes alone across processes are not tested here: behind
 * conditional-s3-proxy.ts, s3rver lost the first record about once in ten runs, which looks like
 * s3rver answering a PUT before its object and metadata agree; see s3-probe.test.ts.)
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseVirtualPath } from '../../../src/index.js';
import { openDatabase } from '../../../src/site/db/database.js';
import { databaseLocks, databaseUsage } from '../../../src/site/db/store-coordination.js';
import { startS3, useS3Storage, type TestS3 } from '../../support/s3-server.js';
import { eachBackend, sampleSite } from '../support/backends.js';

const WORKER = fileURLToPath(new URL('./store-worker.ts', import.meta.url));
const run = promisify(execFile);

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.close();
});

interface Result {
  acked: number[];
  failed: string[];
}

async function worker(job: object): Promise<Result> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(job)], {
    timeout: 120_000,
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Result;
}

/** Every acknowledged `<tag>-<i>` is a line of `text` exactly once, and no other line is. */
function expectExactlyOnce(text: string, results: Record<string, Result>): void {
  const lines = text.split('\n').filter((l) => l !== '');
  const want = Object.entries(results).flatMap(([tag, r]) => r.acked.map((i) => `${tag}-${i}`));
  expect([...lines].sort()).toEqual([...want].sort());
}

eachBackend('storage shared by several processes', (backend) => {
  it('3 processes x 20 appends to one file through openSite: every acknowledged record exactly once', async () => {
    const site = await sampleSite(backend);
    const bucket = await s3.bucket();
    await site.close();
    useS3Storage(site.dir, s3, bucket);
    try {
      const tags = ['n1', 'n2', 'n3'];
      const results = await Promise.all(
        tags.map((tag) => worker({ kind: 'site-append', dir: site.dir, path: '/files/user/log.txt', tag, count: 20 })),
      );
      const byTag = Object.fromEntries(tags.map((t, i) => [t, results[i]!]));
      expect(results.flatMap((r) => r.failed)).toEqual([]);
      expectExactlyOnce((await s3.rawGet(bucket, 'site/files/user/log.txt')) ?? '', byTag);
    } finally {
      await site.done().catch(() => undefined);
    }
  }, 180_000);

  it('the quota across processes: acknowledged writes stay within one limit; removals give it back', async () => {
    const site = await sampleSite(backend);
    const bucket = await s3.bucket();
    const tenant = `q${randomBytes(6).toString('hex')}`;
    const db = { url: backend.url, sqlitePath: path.join(site.dir, 'data', 'site.sqlite') };
    const s3loc = { endpoint: s3.endpoint, bucket, prefix: tenant };
    // 3 x 8 files of 1000 bytes against 10 000 bytes: 10 fit (the folder marker costs no bytes).
    const quotaBytes = 10_000;
    try {
      const tags = ['n1', 'n2', 'n3'];
      const results = await Promise.all(
        tags.map((tag) =>
          worker({ kind: 'store-write', db, tenant, s3: s3loc, quotaBytes, tag, count: 8, size: 1000 }),
        ),
      );
      const acked = results.flatMap((r, n) => r.acked.map((i) => `${tags[n]}-${i}`));
      expect(acked).toHaveLength(10);
      expect(new Set(results.flatMap((r) => r.failed))).toEqual(new Set(['E_QUOTA:quota']));
      const keys = await s3.keys(bucket, `${tenant}/files/user/q/`);
      expect(keys.filter((k) => !k.endsWith('/')).sort()).toEqual(
        acked.map((a) => `${tenant}/files/user/q/${a}`).sort(),
      );
      // The count the processes shared is what the bucket holds: 10 files and the folder marker.
      const handle = await openDatabase(db);
      try {
        const usage = databaseUsage(handle, tenant);
        expect(await usage.get()).toEqual({ bytes: 10_000, entries: 11 });
        const files = s3.files(bucket, tenant, {
          quotaBytes,
          singleProcess: false,
          locks: databaseLocks(handle, tenant),
          usage,
        });
        for (const a of acked.slice(0, 4)) await files.remove(parseVirtualPath(`/files/user/q/${a}`));
        expect(await usage.get()).toEqual({ bytes: 6000, entries: 7 });
        await files.writeAtomic(parseVirtualPath('/files/user/q/again'), new Uint8Array(4000));
        await expect(
          files.writeAtomic(parseVirtualPath('/files/user/q/more'), new Uint8Array(1)),
        ).rejects.toMatchObject({
          code: 'E_QUOTA',
        });
        await files.removeDir(parseVirtualPath('/files/user/q'));
        expect(await usage.get()).toEqual({ bytes: 0, entries: 0 });
      } finally {
        await handle.close();
      }
    } finally {
      await site.done().catch(() => undefined);
    }
  }, 180_000);
});
