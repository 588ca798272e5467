/**
 * FileStore's contract (src/host-adapters/files/file-store.ts), one suite run against both stores:
 * TenantFiles over a local folder and S3Files over a real S3-compatible server (s3rver on
 * 127.0.0.1, test/support/s3-server.ts), two tenants sharing one bucket under two prefixes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStore } from '../../../src/host-adapters/files/file-store.js';
import { KNOWN_ROOTS, type VirtualPath } from '../../../src/host-adapters/files/virtual-path.js';
import { TenantFiles } from '../../../src/host-adapters/files/tenant-files.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3_ACCESS_KEY, S3_SECRET_KEY, startS3, type TestS3 } from '../../support/s3-server.js';
import { S3Files, type S3FilesOptions } from '../../../src/host-adapters/files/s3/s3-files.js';
import { pathOfKey } from '../../../src/host-adapters/files/s3/keys.js';
import { dec, enc, expectFileError, vp } from './helpers.js';

interface Limits {
  quotaBytes: number;
  maxReadBytes: number;
  maxEntries: number;
  maxStorageEntries: number;
}

interface Env {
  /** The store of `tenant` (one instance per tenant and env). */
  store(tenant?: string): FileStore;
  /** A file written around the store, at `rel` (`files/g/x`) of the tenant's storage. */
  raw(tenant: string, rel: string, body: string): Promise<void>;
  /** Strings no error message may contain (real folders, bucket, endpoint). */
  secrets: string[];
}

interface Backend {
  name: string;
  fresh(limits?: Partial<Limits>): Promise<Env>;
}

const DEFAULTS: Limits = { quotaBytes: 1024 * 1024, maxReadBytes: 64 * 1024, maxEntries: 200, maxStorageEntries: 1000 };

let s3: TestS3;
const dirs: string[] = [];

beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const local: Backend = {
  name: 'TenantFiles',
  async fresh(limits = {}) {
    const base = mkdtempSync(join(tmpdir(), 'smartcage-contract-'));
    dirs.push(base);
    const stores = new Map<string, FileStore>();
    const rootOf = (tenant: string) => join(base, tenant);
    return {
      store(tenant = 'a') {
        let s = stores.get(tenant);
        if (!s) {
          for (const r of KNOWN_ROOTS) mkdirSync(join(rootOf(tenant), r.slice('/files/'.length)), { recursive: true });
          s = new TenantFiles({ rootDir: rootOf(tenant), ...DEFAULTS, ...limits });
          stores.set(tenant, s);
        }
        return s;
      },
      async raw(tenant, rel, body) {
        const file = join(rootOf(tenant), rel.replace(/^files\//, ''));
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, body);
      },
      secrets: [base],
    };
  },
};

const object: Backend = {
  name: 'S3Files',
  async fresh(limits = {}) {
    const bucket = await s3.bucket();
    const stores = new Map<string, FileStore>();
    return {
      store(tenant = 'a') {
        let s = stores.get(tenant);
        if (!s) {
          s = s3.files(bucket, `sites/${tenant}`, { ...DEFAULTS, ...limits });
          stores.set(tenant, s);
        }
        return s;
      },
      raw: (tenant, rel, body) => s3.rawPut(bucket, `sites/${tenant}/${rel}`, body),
      secrets: [bucket, s3.endpoint, '127.0.0.1', 'sites/'],
    };
  },
};

const text = async (s: FileStore, p: string) => dec(await s.read(vp(p)));
const names = async (s: FileStore, p: string, recursive = true, maxDepth = 10) =>
  (await s.list(vp(p), { recursive, maxDepth })).map((e) => `${e.path}${e.isDir ? '/' : ''}`);

describe.each([local, object])('FileStore contract: $name', (backend) => {
  const fail = async (env: Env, p: Promise<unknown>, code: Parameters<typeof expectFileError>[1]) => {
    const e = await expectFileError(p, code);
    for (const s of env.secrets) expect(e.message).not.toContain(s);
    return e;
  };

  it('writes, reads, stats and replaces; folders are made on the way', async () => {
    const env = await backend.fresh();
    const s = env.store();
    await s.writeAtomic(vp('/files/g/a/b/c.txt'), enc('one'));
    expect(await text(s, '/files/g/a/b/c.txt')).toBe('one');
    await s.writeAtomic(vp('/files/g/a/b/c.txt'), enc('two!'));
    expect(await text(s, '/files/g/a/b/c.txt')).toBe('two!');
    const st = await s.stat(vp('/files/g/a/b/c.txt'));
    expect(st).toMatchObject({ size: 4, isDir: false });
    expect(st.mtime).toBeGreaterThan(Date.now() - 600_000);
    expect((await s.stat(vp('/files/g/a'))).isDir).toBe(true);
    expect((await s.stat(vp('/files/g'))).isDir).toBe(true);
    await fail(env, s.stat(vp('/files/g/nothing')), 'E_FILE_NOT_FOUND');
    await fail(env, s.read(vp('/files/g/nothing.txt')), 'E_FILE_NOT_FOUND');
    await fail(env, s.read(vp('/files/g/a')), 'E_FILE_FAILED');
  });

  it('a file never goes onto a folder or below a file', async () => {
    const env = await backend.fresh();
    const s = env.store();
    await s.writeAtomic(vp('/files/g/d/f.txt'), enc('x'));
    await fail(env, s.writeAtomic(vp('/files/g/d'), enc('y')), 'E_FILE_FAILED');
    await fail(env, s.appendRecord(vp('/files/g/d'), enc('y')), 'E_FILE_FAILED');
    await fail(env, s.writeAtomic(vp('/files/g/d/f.txt/under'), enc('y')), 'E_FILE_FAILED');
    expect(await names(s, '/files/g')).toEqual(['/files/g/d/', '/files/g/d/f.txt']);
  });

  it('lists in pre-order, names by UTF-8 bytes, to the depth asked', async () => {
    const env = await backend.fresh();
    const s = env.store();
    for (const p of [
      '/files/g/a-b.txt',
      '/files/g/a/z.txt',
      '/files/g/a/deep/x.txt',
      '/files/g/B.txt',
      '/files/g/é.txt',
      '/files/g/a/c.txt',
    ]) {
      await s.writeAtomic(vp(p), enc(p));
    }
    expect(await names(s, '/files/g')).toEqual([
      '/files/g/B.txt',
      '/files/g/a/',
      '/files/g/a/c.txt',
      '/files/g/a/deep/',
      '/files/g/a/deep/x.txt',
      '/files/g/a/z.txt',
      '/files/g/a-b.txt',
      '/files/g/é.txt',
    ]);
    expect(await names(s, '/files/g', false)).toEqual([
      '/files/g/B.txt',
      '/files/g/a/',
      '/files/g/a-b.txt',
      '/files/g/é.txt',
    ]);
    expect(await names(s, '/files/g', true, 2)).toEqual([
      '/files/g/B.txt',
      '/files/g/a/',
      '/files/g/a/c.txt',
      '/files/g/a/deep/',
      '/files/g/a/z.txt',
      '/files/g/a-b.txt',
      '/files/g/é.txt',
    ]);
    const file = (await s.list(vp('/files/g/a'), { recursive: false, maxDepth: 1 })).find(
      (e) => e.path === '/files/g/a/c.txt',
    );
    expect(file).toMatchObject({ size: '/files/g/a/c.txt'.length, isDir: false });
    expect(await names(s, '/files/a')).toEqual([]);
    await fail(env, s.list(vp('/files/g/none'), { recursive: false, maxDepth: 1 }), 'E_FILE_NOT_FOUND');
  });

  it('listing caps: entries (E_SIZE_LIMIT) and entries scanned (maxScanned, counted also on failure)', async () => {
    const env = await backend.fresh({ maxEntries: 5 });
    const s = env.store();
    for (let i = 0; i < 6; i++) await s.writeAtomic(vp(`/files/g/many/f${i}`), enc('x'));
    await fail(env, s.list(vp('/files/g/many'), { recursive: false, maxDepth: 1 }), 'E_SIZE_LIMIT');
    const scanned = { count: 0 };
    await fail(env, s.list(vp('/files/g'), { recursive: true, maxDepth: 5, maxScanned: 3, scanned }), 'E_SIZE_LIMIT');
    expect(scanned.count).toBeGreaterThan(3);
    const ok = { count: 0 };
    await s
      .list(vp('/files/g/many'), { recursive: false, maxDepth: 1, maxScanned: 1000, scanned: ok })
      .catch(() => undefined);
    expect(ok.count).toBeGreaterThanOrEqual(5);
  });

  it('read cap: E_SIZE_LIMIT past maxReadBytes', async () => {
    const env = await backend.fresh({ maxReadBytes: 100 });
    const s = env.store();
    await s.writeAtomic(vp('/files/g/big.bin'), new Uint8Array(101));
    await s.writeAtomic(vp('/files/g/ok.bin'), new Uint8Array(100));
    await fail(env, s.read(vp('/files/g/big.bin')), 'E_SIZE_LIMIT');
    expect((await s.read(vp('/files/g/ok.bin'))).length).toBe(100);
  });

  it('readStream: the bytes in chunks, the size first; the read cap, folders and missing files fail before any byte', async () => {
    const env = await backend.fresh({ maxReadBytes: 200 * 1024 });
    const s = env.store();
    const data = new Uint8Array(150 * 1024).map((_, i) => i % 251);
    await s.writeAtomic(vp('/files/g/media/a.bin'), data);
    await s.writeAtomic(vp('/files/g/media/big.bin'), new Uint8Array(200 * 1024 + 1));
    const f = await s.readStream!(vp('/files/g/media/a.bin'));
    expect(f.size).toBe(data.length);
    const chunks: Uint8Array[] = [];
    for await (const c of f.chunks) chunks.push(c);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).equals(Buffer.from(data))).toBe(true);
    await fail(env, s.readStream!(vp('/files/g/media/big.bin')), 'E_SIZE_LIMIT');
    await fail(env, s.readStream!(vp('/files/g/media')), 'E_FILE_FAILED');
    await fail(env, s.readStream!(vp('/files/g/media/none.bin')), 'E_FILE_NOT_FOUND');
    // A reader that stops early closes the file; the store goes on.
    const early = await s.readStream!(vp('/files/g/media/a.bin'));
    await early.close();
    expect((await s.read(vp('/files/g/media/a.bin'))).length).toBe(data.length);
  });

  it('appends whole records, also when 20 race on one file', async () => {
    const env = await backend.fresh();
    const s = env.store();
    await s.appendRecord(vp('/files/g/log/a.jsonl'), enc('first\n'));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.appendRecord(vp('/files/g/log/a.jsonl'), enc(`record-${i}-${'x'.repeat(50)}\n`)),
      ),
    );
    const lines = (await text(s, '/files/g/log/a.jsonl')).trimEnd().split('\n');
    expect(lines[0]).toBe('first');
    expect(lines.slice(1).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `record-${i}-${'x'.repeat(50)}`).sort());
  });

  it('removes files, not folders; remove_dir only empty folders unless recursive; a folder outlives its last file', async () => {
    const env = await backend.fresh();
    const s = env.store();
    await s.writeAtomic(vp('/files/g/r/sub/a.txt'), enc('a'));
    await s.writeAtomic(vp('/files/g/r/b.txt'), enc('b'));
    await fail(env, s.remove(vp('/files/g/r/sub')), 'E_FILE_FAILED');
    await fail(env, s.remove(vp('/files/g/r/none.txt')), 'E_FILE_NOT_FOUND');
    await fail(env, s.removeDir(vp('/files/g/r'), { recursive: false }), 'E_FILE_FAILED');
    await s.remove(vp('/files/g/r/sub/a.txt'));
    expect(await names(s, '/files/g/r')).toEqual(['/files/g/r/b.txt', '/files/g/r/sub/']);
    await s.removeDir(vp('/files/g/r/sub'), { recursive: false });
    await s.removeDir(vp('/files/g/r'));
    await fail(env, s.stat(vp('/files/g/r')), 'E_FILE_NOT_FOUND');
    await fail(env, s.removeDir(vp('/files/g/r')), 'E_FILE_NOT_FOUND');
  });

  it('renames files only, making the destination folders, replacing a file, never a folder', async () => {
    const env = await backend.fresh();
    const s = env.store();
    await s.writeAtomic(vp('/files/g/m/a.txt'), enc('moved'));
    await s.rename(vp('/files/g/m/a.txt'), vp('/files/a/n/deep/b.txt'));
    expect(await text(s, '/files/a/n/deep/b.txt')).toBe('moved');
    await fail(env, s.read(vp('/files/g/m/a.txt')), 'E_FILE_NOT_FOUND');
    await s.writeAtomic(vp('/files/g/m/c.txt'), enc('over'));
    await s.rename(vp('/files/g/m/c.txt'), vp('/files/a/n/deep/b.txt'));
    expect(await text(s, '/files/a/n/deep/b.txt')).toBe('over');
    await fail(env, s.rename(vp('/files/a/n'), vp('/files/g/n2')), 'E_FILE_FAILED');
    await fail(env, s.rename(vp('/files/g/m/none'), vp('/files/g/x')), 'E_FILE_NOT_FOUND');
    await s.writeAtomic(vp('/files/g/m/d.txt'), enc('d'));
    await fail(env, s.rename(vp('/files/g/m/d.txt'), vp('/files/a/n')), 'E_FILE_FAILED');
    expect(await text(s, '/files/g/m/d.txt')).toBe('d');
  });

  it('roots are listed and stat-ed, never written, appended, removed or moved (E_PATH_DENIED)', async () => {
    const env = await backend.fresh();
    const s = env.store();
    await s.writeAtomic(vp('/files/g/x.txt'), enc('x'));
    await fail(env, s.writeAtomic(vp('/files/g'), enc('x')), 'E_PATH_DENIED');
    await fail(env, s.appendRecord(vp('/files/temp'), enc('x')), 'E_PATH_DENIED');
    await fail(env, s.remove(vp('/files/g')), 'E_PATH_DENIED');
    await fail(env, s.removeDir(vp('/files/g')), 'E_PATH_DENIED');
    await fail(env, s.rename(vp('/files/g'), vp('/files/a/x')), 'E_PATH_DENIED');
    await fail(env, s.rename(vp('/files/g/x.txt'), vp('/files/a')), 'E_PATH_DENIED');
    expect(await text(s, '/files/g/x.txt')).toBe('x');
  });

  it('a hand-built VirtualPath is checked again (E_PATH_DENIED)', async () => {
    const env = await backend.fresh();
    const s = env.store();
    const forged = {
      root: '/files/g',
      segments: ['..', '..', 'b'],
      text: '/files/g/../../b',
      trailingSlash: false,
    } as VirtualPath;
    const inconsistent = { ...vp('/files/g/ok.txt'), segments: ['other.txt'] } as VirtualPath;
    await fail(env, s.writeAtomic(forged, enc('x')), 'E_PATH_DENIED');
    await fail(env, s.read(inconsistent), 'E_PATH_DENIED');
  });

  it('quota: a write past the bytes is refused before writing; replacements count the difference', async () => {
    const env = await backend.fresh({ quotaBytes: 1000 });
    const s = env.store();
    await s.writeAtomic(vp('/files/g/q.txt'), new Uint8Array(900));
    await s.writeAtomic(vp('/files/g/q.txt'), new Uint8Array(950));
    await fail(env, s.writeAtomic(vp('/files/g/other.txt'), new Uint8Array(100)), 'E_QUOTA');
    await fail(env, s.appendRecord(vp('/files/g/q.txt'), new Uint8Array(60)), 'E_QUOTA');
    expect((await s.stat(vp('/files/g/q.txt'))).size).toBe(950);
    await fail(env, s.stat(vp('/files/g/other.txt')), 'E_FILE_NOT_FOUND');
    await s.remove(vp('/files/g/q.txt'));
    await s.writeAtomic(vp('/files/g/other.txt'), new Uint8Array(1000));
  });

  it('quota: the count of files and folders (empty files cost no bytes)', async () => {
    const env = await backend.fresh({ maxStorageEntries: 40 });
    const s = env.store();
    let written = 0;
    const e = await expectFileError(
      (async () => {
        for (let i = 0; i < 100; i++) {
          await s.writeAtomic(vp(`/files/g/e${i}/x`), new Uint8Array(0));
          written++;
        }
      })(),
      'E_QUOTA',
    );
    expect(e.message).toMatch(/at most 40 files and folders/);
    expect(written).toBeGreaterThan(5);
    expect(written).toBeLessThan(21);
    await fail(env, s.stat(vp(`/files/g/e${written}/x`)), 'E_FILE_NOT_FOUND');
  });

  it('two tenants never see each other, whatever the keys', async () => {
    const env = await backend.fresh();
    const a = env.store('a');
    const b = env.store('b');
    await b.writeAtomic(vp('/files/g/secret/canary.txt'), enc('CANARY-B'));
    await a.writeAtomic(vp('/files/g/mine.txt'), enc('A'));
    expect(await names(a, '/files/g')).toEqual(['/files/g/mine.txt']);
    await fail(env, a.read(vp('/files/g/secret/canary.txt')), 'E_FILE_NOT_FOUND');
    await a.writeAtomic(vp('/files/g/secret/canary.txt'), enc('A over'));
    expect(await text(b, '/files/g/secret/canary.txt')).toBe('CANARY-B');
    // Names no canonical virtual path can name, written around the store, stay invisible.
    await env.raw('a', 'files/g/%2e%2e/x.txt', 'pct');
    await env.raw('a', 'files/g/cafe\u0301.txt', 'nfd');
    await env.raw('a', 'files/g/.hidden', 'dot');
    expect(await names(a, '/files/g')).toEqual(['/files/g/mine.txt', '/files/g/secret/', '/files/g/secret/canary.txt']);
    await fail(env, a.read(vp('/files/g/café.txt')), 'E_FILE_NOT_FOUND');
  });
});

const s3Options = (bucket: string): S3FilesOptions => ({
  endpoint: s3.endpoint,
  region: 'us-east-1',
  bucket,
  prefix: 't',
  forcePathStyle: true,
  accessKeyId: S3_ACCESS_KEY,
  secretAccessKey: S3_SECRET_KEY,
  quotaBytes: 1 << 20,
  maxReadBytes: 1 << 16,
  maxEntries: 100,
  singleProcess: true,
});

describe('S3Files only', () => {
  it("keys mirror the virtual path under the tenant prefix; `a/../b` and other tenants' keys stay out of reach", async () => {
    const bucket = await s3.bucket();
    const a = s3.files(bucket, 'sites/a');
    const a2 = s3.files(bucket, 'sites/a2');
    await a.writeAtomic(vp('/files/g/dir/x.txt'), enc('x'));
    await a2.writeAtomic(vp('/files/g/y.txt'), enc('y'));
    expect(await s3.keys(bucket)).toEqual([
      'sites/a/files/g/dir/',
      'sites/a/files/g/dir/x.txt',
      'sites/a2/files/g/y.txt',
    ]);
    // The HTTP layer resolves dot segments of a key (the SDK sends the path, the server stores
    // `sites/a/a2/files/g/z`): which is why the store never builds a key with one.
    await s3.rawPut(bucket, 'sites/a/files/g/../../a2/files/g/z', 'escape');
    expect(await names(a2, '/files/g')).toEqual(['/files/g/y.txt']);
    expect(await names(a, '/files/g')).toEqual(['/files/g/dir/', '/files/g/dir/x.txt']);
    expect((await a.usage()).entries).toBe(2);
    for (const k of [
      'sites/a/files/g/a/../b',
      'sites/a/files/g/%2e%2e/x',
      'sites/a/files/g/cafe\u0301',
      'sites/a/files/g/.env',
      'sites/a/files/g/x/',
      'sites/ab/files/g/x',
    ]) {
      expect(pathOfKey('sites/a/', k)?.path.text ?? null).toBe(k === 'sites/a/files/g/x/' ? '/files/g/x' : null);
    }
    expect(() => s3.files(bucket, '../x')).toThrow(TypeError);
    expect(() => s3.files(bucket, 'a/./b')).toThrow(TypeError);
  });

  it('ACL from the path (public only under /files/g/public), Content-Type from the content, then the name', async () => {
    const bucket = await s3.bucket();
    const seen = new Map<string, { acl: string | undefined; type: string | undefined }>();
    const target = new URL(s3.endpoint);
    // A recording hop in front of the server: it sees the headers the store sends (s3rver keeps no ACL).
    const proxy = http.createServer((req, res) => {
      if (req.method === 'PUT')
        seen.set(decodeURIComponent((req.url ?? '').split('?')[0]), {
          acl: req.headers['x-amz-acl'] as string | undefined,
          type: req.headers['content-type'],
        });
      const fwd = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      req.pipe(fwd);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const s = new S3Files({
        ...s3Options(bucket),
        endpoint: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      });
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);
      await s.writeAtomic(vp('/files/g/public/img/logo.txt'), png);
      await s.writeAtomic(vp('/files/g/private/report.csv'), enc('a,b\n'));
      await s.writeAtomic(vp('/files/g/publicity.bin'), enc('?'));
      await s.appendRecord(vp('/files/a/log'), enc('x\n'));
      await s.rename(vp('/files/g/private/report.csv'), vp('/files/g/public/report.csv'));
      const at = (k: string) => seen.get(`/${bucket}/t/${k}`);
      expect(at('files/g/public/img/logo.txt')).toEqual({ acl: 'public-read', type: 'image/png' });
      expect(at('files/g/public/img/')).toEqual({ acl: 'private', type: 'application/x-directory' });
      expect(at('files/g/private/report.csv')).toEqual({ acl: 'private', type: 'text/csv; charset=utf-8' });
      expect(at('files/g/publicity.bin')).toEqual({ acl: 'private', type: 'application/octet-stream' });
      expect(at('files/a/log')).toEqual({ acl: 'private', type: 'application/octet-stream' });
      expect(at('files/g/public/report.csv')).toEqual({ acl: 'public-read', type: 'text/csv; charset=utf-8' });
    } finally {
      proxy.close();
    }
  });

  it('the usage counts keys already there, and a new instance sees them', async () => {
    const bucket = await s3.bucket();
    const first = s3.files(bucket, 't', { quotaBytes: 100 });
    await first.writeAtomic(vp('/files/g/a.bin'), new Uint8Array(80));
    const second = s3.files(bucket, 't', { quotaBytes: 100 });
    await expectFileError(second.writeAtomic(vp('/files/g/b.bin'), new Uint8Array(30)), 'E_QUOTA');
    expect(await second.usage()).toEqual({ bytes: 80, entries: 1 });
  });

  it('appending never makes a file that cannot be read back (E_SIZE_LIMIT)', async () => {
    const bucket = await s3.bucket();
    const s = s3.files(bucket, 't', { maxReadBytes: 10 });
    await s.appendRecord(vp('/files/g/l'), enc('12345'));
    await s.appendRecord(vp('/files/g/l'), enc('67890'));
    await expectFileError(s.appendRecord(vp('/files/g/l'), enc('x')), 'E_SIZE_LIMIT');
    expect(await s3.rawGet(bucket, 't/files/g/l')).toBe('1234567890');
  });

  it('an unreachable server is E_FILE_FAILED naming the virtual path only', async () => {
    const s = new S3Files({ ...s3Options('no-such-bucket'), endpoint: 'http://127.0.0.1:1', requestTimeoutMs: 2000 });
    const e = await expectFileError(s.read(vp('/files/g/x.txt')), 'E_FILE_FAILED');
    expect(e.message).toContain('/files/g/x.txt');
    expect(e.message).not.toMatch(/127\.0\.0\.1|no-such-bucket/);
  });
});
