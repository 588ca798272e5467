/**
 * The shared usage count (SharedCount over the site database's storage_usage) gives back what a
 * failed write reserved: a PUT the server refuses leaves the count as it was, and the space can
 * be used by the next write. A hop in front of s3rver fails the PUTs of one key.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseVirtualPath } from '../../../src/index.js';
import { openDatabase, type SiteDatabase } from '../../../src/site/db/database.js';
import { databaseLocks, databaseUsage } from '../../../src/site/db/store-coordination.js';
import { migrate } from '../../../src/site/schema/index.js';
import { startS3, type TestS3 } from '../../support/s3-server.js';
import { eachBackend } from '../support/backends.js';

let s3: TestS3;
let hop: http.Server;
let endpoint: string;
beforeAll(async () => {
  s3 = await startS3();
  const target = new URL(s3.endpoint);
  hop = http.createServer((req, res) => {
    if (req.method === 'PUT' && (req.url ?? '').includes('/broken')) {
      req.resume();
      res.writeHead(500, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0"?><Error><Code>InternalError</Code><Message>no</Message></Error>');
      return;
    }
    const fwd = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    req.pipe(fwd);
  });
  await new Promise<void>((r) => hop.listen(0, '127.0.0.1', r));
  endpoint = `http://127.0.0.1:${(hop.address() as AddressInfo).port}`;
});
afterAll(async () => {
  hop?.close();
  await s3?.close();
});

eachBackend('the shared usage count and failed writes', (backend) => {
  let dir: string;
  let db: SiteDatabase;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'smartcage-usage-'));
    db = await openDatabase({ url: backend.url, sqlitePath: path.join(dir, 'site.sqlite') });
    await migrate(db);
  });
  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a refused PUT leaves the count as it was, and its space stays usable', async () => {
    const bucket = await s3.bucket();
    const tenant = `u${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const usage = databaseUsage(db, tenant);
    const files = s3.files(bucket, tenant, {
      endpoint,
      quotaBytes: 1000,
      singleProcess: false,
      locks: databaseLocks(db, tenant),
      usage,
    });
    await files.writeAtomic(parseVirtualPath('/files/user/a'), new Uint8Array(600));
    expect(await usage.get()).toEqual({ bytes: 600, entries: 1 });
    for (const p of ['/files/user/broken', '/files/user/d/broken']) {
      await expect(files.writeAtomic(parseVirtualPath(p), new Uint8Array(400))).rejects.toMatchObject({
        code: 'E_FILE_FAILED',
      });
      await expect(files.appendRecord(parseVirtualPath(p), new Uint8Array(400))).rejects.toMatchObject({
        code: 'E_FILE_FAILED',
      });
    }
    // The marker of /files/user/d was made (and counted); the refused objects were not.
    expect(await usage.get()).toEqual({ bytes: 600, entries: 2 });
    await files.writeAtomic(parseVirtualPath('/files/user/b'), new Uint8Array(400));
    expect(await usage.get()).toEqual({ bytes: 1000, entries: 3 });
    await expect(files.writeAtomic(parseVirtualPath('/files/user/c'), new Uint8Array(1))).rejects.toMatchObject({
      code: 'E_QUOTA',
    });
    await files.rename(parseVirtualPath('/files/user/b'), parseVirtualPath('/files/user/a'));
    expect(await usage.get()).toEqual({ bytes: 400, entries: 2 });
  });
});
