/**
 * {gzip} on the local site of each backend: sources from /files/g and https (through the real
 * egress guard), where the result goes with and without dest, and every refusal at its line with
 * nothing written.
 */
import { gunzipSync } from 'node:zlib';
import { closeSync, mkdirSync, openSync, ftruncateSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { archiveBench } from '../../support/archives/archive-bench.js';
import { listTree } from '../../support/archives/store-listing.js';
import { MAX_ARCHIVE_INPUT_BYTES } from '../../../src/host-plugins/archives/limits.js';

const TEXT = 'report line\n'.repeat(100);

eachBackend('gzip', (backend) => {
  const bench = archiveBench(backend);

  it('compresses a /files/g file next to itself and sets gzip_dest', async () => {
    await bench.put('/files/g/reports/r.txt', TEXT);
    expect(await bench.render('{gzip file_url="/files/g/reports/r.txt"}{$gzip_dest}')).toBe(
      '/files/g/reports/r.txt.gz',
    );
    expect(gunzipSync(await bench.get('/files/g/reports/r.txt.gz')).toString()).toBe(TEXT);
  });

  it('writes to a file dest, or into a folder dest ending in /, replacing what is there', async () => {
    await bench.put('/files/g/reports/r.txt', TEXT);
    await bench.put('/files/g/packed/r.gz', 'old');
    expect(await bench.render('{gzip file_url="/files/g/reports/r.txt" dest="/files/g/packed/r.gz"}{$gzip_dest}')).toBe(
      '/files/g/packed/r.gz',
    );
    expect(gunzipSync(await bench.get('/files/g/packed/r.gz')).toString()).toBe(TEXT);
    expect(await bench.render('{gzip file_url="/files/g/reports/r.txt" dest="/files/g/packed/"}{$gzip_dest}')).toBe(
      '/files/g/packed/r.txt.gz',
    );
  });

  it('fetches an https source through the egress guard, to a new name under /files/g/archives', async () => {
    bench.serve.set('/data/feed.json', Buffer.from('{"a":1}'));
    const dest = await bench.render('{gzip file_url=$u}{$gzip_dest}', { vars: { u: bench.url('/data/feed.json') } });
    expect(dest).toMatch(/^\/files\/g\/archives\/[0-9a-f-]{36}\.gz$/);
    expect(gunzipSync(await bench.get(dest)).toString()).toBe('{"a":1}');
    expect(
      await bench.render('{gzip file_url=$u dest="/files/g/feeds/"}{$gzip_dest}', {
        vars: { u: bench.url('/data/feed.json') },
      }),
    ).toBe('/files/g/feeds/feed.json.gz');
  });

  it('refuses what the guard refuses and fails on what the server answers, writing nothing', async () => {
    const before = listTree(path.join(bench.site.dir, 'files'));
    expect(await bench.error('{gzip file_url="https://127.0.0.1/x"}')).toMatchObject({
      code: 'E_SSRF_DENIED',
      line: 1,
    });
    expect(await bench.error('\n{gzip file_url=$u}', { vars: { u: bench.url('/missing') } })).toMatchObject({
      code: 'E_HTTP_FAILED',
      line: 2,
    });
    expect(listTree(path.join(bench.site.dir, 'files'))).toEqual(before);
  });

  it('takes /files/g paths and https URLs only, and writes under /files/g only', async () => {
    await bench.put('/files/g/reports/r.txt', TEXT);
    const before = listTree(path.join(bench.site.dir, 'files'));
    for (const t of [
      '{gzip file_url="/files/user/example/notes.txt"}',
      '{gzip file_url="http://public.test/x"}',
      '{gzip file_url="file:///etc/passwd"}',
      '{gzip file_url="/files/g/../user/x"}',
      '{gzip file_url="/files/g/reports/r.txt" dest="/files/user/r.gz"}',
      '{gzip file_url="/files/g/reports/r.txt" dest="/files/g"}',
      '{gzip file_url="/files/g/reports/r.txt" dest="/files/g/a/../../user/x"}',
      '{gzip file_url="/files/g/reports/r.txt" bucket="other-bucket"}',
    ]) {
      expect(await bench.error(t), t).toMatchObject({ code: 'E_PATH_DENIED', line: 1 });
    }
    expect(listTree(path.join(bench.site.dir, 'files'))).toEqual(before);
  });

  it('fails on a missing source or a folder', async () => {
    expect(await bench.error('{gzip file_url="/files/g/nothing/here.txt"}')).toMatchObject({
      code: 'E_FILE_NOT_FOUND',
    });
    await bench.put('/files/g/folder/inside.txt', 'x');
    expect(await bench.error('{gzip file_url="/files/g/folder"}')).toMatchObject({ code: 'E_FILE_FAILED' });
  });

  it(`refuses a source over ${MAX_ARCHIVE_INPUT_BYTES} bytes before reading it, from the store or a URL`, async () => {
    const real = path.join(bench.site.dir, 'files', 'g', 'big');
    mkdirSync(real, { recursive: true });
    const fd = openSync(path.join(real, 'sparse.bin'), 'w');
    ftruncateSync(fd, MAX_ARCHIVE_INPUT_BYTES + 1);
    closeSync(fd);
    expect(await bench.error('{gzip file_url="/files/g/big/sparse.bin"}')).toMatchObject({ code: 'E_SIZE_LIMIT' });
    expect(await bench.exists('/files/g/big/sparse.bin.gz')).toBe(false);
    bench.serve.set('/big.bin', Buffer.alloc(MAX_ARCHIVE_INPUT_BYTES + 1));
    expect(
      await bench.error('{gzip file_url=$u dest="/files/g/big/url.gz"}', { vars: { u: bench.url('/big.bin') } }),
    ).toMatchObject({ code: 'E_HTTP_LIMIT' });
    bench.serve.delete('/big.bin');
    expect(await bench.exists('/files/g/big/url.gz')).toBe(false);
  });
});

eachBackend('gzip without the http adapter', (backend) => {
  const bench = archiveBench(backend, { host: ({ http: _http, ...h }) => h });
  it('refuses a URL source (E_HOST_CAPABILITY) and still compresses stored files', async () => {
    expect(await bench.error('{gzip file_url="https://public.test/x"}')).toMatchObject({ code: 'E_HOST_CAPABILITY' });
    await bench.put('/files/g/a.txt', 'a');
    expect(await bench.render('{gzip file_url="/files/g/a.txt"}{$gzip_dest}')).toBe('/files/g/a.txt.gz');
  });
});
