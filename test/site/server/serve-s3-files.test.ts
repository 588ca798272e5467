/**
 * `serve` answers /files/user/... and the file picker (api/files) of a site whose storage is an
 * S3-compatible bucket (s3rver on 127.0.0.1) through the site's store, not the local files/
 * folder: the bucket's files are there, with their content type, streamed (the store's whole-file
 * read is never used), and with the same checks as for the folder (only /files/user, no `..`).
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSiteServer } from '../../../src/site/app/app.js';
import { parseVirtualPath } from '../../../src/host-adapters/files/virtual-path.js';
import type { FileStore } from '../../../src/index.js';
import type { ServeServer } from '../../../src/site/server/listen.js';
import { openSite, type Site } from '../../../src/site/open-site.js';
import { S3_ACCESS_KEY, S3_SECRET_KEY, startS3, type TestS3 } from '../../support/s3-server.js';
import { BACKENDS, sampleSite } from '../support/backends.js';
import { http } from '../support/http.js';
import { request } from 'node:http';

/** The body as bytes (http() of support/http.ts decodes UTF-8). */
function bytes(url: string): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((done, fail) => {
    request(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    })
      .on('error', fail)
      .end();
  });
}

describe('serve: the files of a site on S3', () => {
  let s3: TestS3;
  let base: Awaited<ReturnType<typeof sampleSite>>;
  let site: Site;
  let store: FileStore;
  let server: ServeServer;
  let bucket: string;
  const at = (p: string) => `http://127.0.0.1:${server.port}${p}`;
  const put = (p: string, data: string | Uint8Array) =>
    store.writeAtomic(parseVirtualPath(p), typeof data === 'string' ? new TextEncoder().encode(data) : data);

  beforeAll(async () => {
    s3 = await startS3();
    bucket = await s3.bucket();
    base = await sampleSite(BACKENDS[0]!, {
      edit: (c) => {
        c.storage = {
          type: 's3',
          endpoint: s3.endpoint,
          region: 'us-east-1',
          bucket,
          prefix: 'site-a',
          access_key_secret: 'S3_KEY',
          secret_key_secret: 'S3_SECRET',
          force_path_style: true,
        };
      },
      files: {
        'secrets.json': JSON.stringify({ S3_KEY: { value: S3_ACCESS_KEY }, S3_SECRET: { value: S3_SECRET_KEY } }),
      },
    });
    await base.close();
    // A file only in the local folder: an S3 site must not serve it.
    writeFileSync(path.join(base.dir, 'files', 'user', 'local-only.txt'), 'local');
    site = await openSite(base.dir);
    store = site.host.files!;
    server = await startSiteServer({ port: 0, sites: [site], mode: 'single' });
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
    await base?.done().catch(() => undefined);
    await s3?.close();
  });

  it('serves a file of the bucket with its content type; the local folder is not read', async () => {
    await put('/files/user/hello.txt', 'hello from the bucket');
    expect(await s3.rawGet(bucket, 'site-a/files/user/hello.txt')).toBe('hello from the bucket');
    const r = await http(at('/files/user/hello.txt'));
    expect([r.status, r.body, r.headers['content-type']]).toEqual([
      200,
      'hello from the bucket',
      'text/plain; charset=utf-8',
    ]);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect((await http(at('/files/user/local-only.txt'))).status).toBe(404);
  });

  it('streams a large file whole, in chunks, without reading it whole', async () => {
    const read = vi.spyOn(store, 'read');
    const big = randomBytes(3 * 1024 * 1024 + 17);
    await put('/files/user/media/big.bin', big);
    const r = await bytes(at('/files/user/media/big.bin'));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/octet-stream');
    expect(r.headers['content-disposition']).toBe('attachment');
    expect(r.headers['content-length']).toBe(String(big.length));
    expect(r.body.equals(big)).toBe(true);
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(100)]);
    await put('/files/user/media/pic.png', png);
    const p = await bytes(at('/files/user/media/pic.png'));
    expect([p.status, p.headers['content-type'], p.body.equals(png)]).toEqual([200, 'image/png', true]);
    expect(read).not.toHaveBeenCalled();
    read.mockRestore();
  });

  it('HEAD answers the size without the body', async () => {
    await put('/files/user/head.txt', 'twelve bytes');
    const r = await http(at('/files/user/head.txt'), { method: 'HEAD' });
    expect([r.status, r.headers['content-length'], r.body]).toEqual([200, '12', '']);
  });

  it('the picker lists the folders and files of the bucket', async () => {
    await put('/files/user/docs/a.txt', 'a');
    await put('/files/user/docs/sub/b.txt', 'b');
    const r = await http(at('/api/files?path=/files/user/docs/'));
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({
      path: '/files/user/docs/',
      entries: [
        { name: 'sub', path: '/files/user/docs/sub/', type: 'dir' },
        { name: 'a.txt', path: '/files/user/docs/a.txt', type: 'file' },
      ],
    });
    expect((await http(at('/api/files?path=/files/user/none/'))).status).toBe(404);
  });

  it('the same checks as for the folder: only /files/user, no dot segments, folders and missing files 404', async () => {
    await put('/files/ltd/secret.txt', 'members only');
    expect((await http(at('/files/ltd/secret.txt'))).status).toBe(404);
    expect((await http(at('/api/files?path=/files/ltd/'))).status).toBe(400);
    // The URL's dot segments are resolved before routing: this is /files/ltd/secret.txt again.
    const dots = await http(at('/files/user/%2e%2e/ltd/secret.txt'));
    expect([dots.status, dots.body]).toEqual([404, 'not found']);
    expect((await http(at('/files/user/.hidden'))).status).toBe(400);
    expect((await http(at('/files/user/docs'))).status).toBe(404);
    expect((await http(at('/files/user/missing.txt'))).status).toBe(404);
  });
});
