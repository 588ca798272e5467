/**
 * {zip} on the local site of each backend: an archive of stored files and https sources with
 * Japanese names that yauzl reads back as UTF-8, the zip then unzip round trip, and every
 * refusal (names, sources, sizes) before anything is read or written.
 */
import { closeSync, ftruncateSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { archiveBench } from '../../support/archives/archive-bench.js';
import { listTree } from '../../support/archives/store-listing.js';
import { MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_INPUT_BYTES } from '../../../src/host-plugins/archives/limits.js';

async function namesIn(zip: Buffer): Promise<{ name: string; utf8: boolean; size: number }[]> {
  const z = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const out: { name: string; utf8: boolean; size: number }[] = [];
  for await (const e of z.eachEntry())
    out.push({ name: e.fileName, utf8: (e.generalPurposeBitFlag & 0x800) !== 0, size: e.uncompressedSize });
  return out;
}

eachBackend('zip', (backend) => {
  const bench = archiveBench(backend);
  const tree = () => listTree(path.join(bench.site.dir, 'files'));

  it('archives stored files and https sources under their names, stored as UTF-8', async () => {
    await bench.put('/files/g/docs/報告書.txt', '報告\n');
    await bench.put('/files/g/docs/data.csv', 'a,b\n1,2\n');
    bench.serve.set('/logo.svg', Buffer.from('<svg/>'));
    const entries = [
      { url: '/files/g/docs/報告書.txt', name: '資料/報告書.txt' },
      { url: '/files/g/docs/data.csv', name: 'data.csv' },
      { url: bench.url('/logo.svg'), name: '画像/ロゴ.svg' },
    ];
    expect(
      await bench.render('{zip entries=$e dest="/files/g/out/all.zip"}{$zip_dest}', { vars: { e: entries } }),
    ).toBe('/files/g/out/all.zip');
    expect(await namesIn(await bench.get('/files/g/out/all.zip'))).toEqual([
      { name: '資料/報告書.txt', utf8: true, size: 7 },
      { name: 'data.csv', utf8: true, size: 8 },
      { name: '画像/ロゴ.svg', utf8: true, size: 6 },
    ]);
  });

  it('round trips through unzip: the same names and bytes', async () => {
    await bench.put('/files/g/rt/一.txt', '一番目');
    await bench.put('/files/g/rt/two.bin', Buffer.from([0, 1, 2, 255]));
    const e = [
      { url: '/files/g/rt/一.txt', name: 'フォルダ/一.txt' },
      { url: '/files/g/rt/two.bin', name: 'two.bin' },
    ];
    const out = await bench.render(
      '{zip entries=$e dest="/files/g/rt.zip"}{unzip src=$zip_dest dest="/files/g/rt-out"}{foreach from=$unzip_result.files item=f}{$f} {/foreach}',
      { vars: { e } },
    );
    expect(out).toBe('/files/g/rt-out/フォルダ/一.txt /files/g/rt-out/two.bin ');
    expect((await bench.get('/files/g/rt-out/フォルダ/一.txt')).toString()).toBe('一番目');
    expect([...(await bench.get('/files/g/rt-out/two.bin'))]).toEqual([0, 1, 2, 255]);
  });

  it('names a new archive under /files/g/archives without dest, and replaces an existing dest', async () => {
    await bench.put('/files/g/x.txt', 'x');
    expect(
      await bench.render('{zip entries=$e}{$zip_dest}', { vars: { e: [{ url: '/files/g/x.txt', name: 'x.txt' }] } }),
    ).toMatch(/^\/files\/g\/archives\/[0-9a-f-]{36}\.zip$/);
    await bench.put('/files/g/replace.zip', 'not a zip');
    await bench.render('{zip entries=$e dest="/files/g/replace.zip"}', {
      vars: { e: [{ url: '/files/g/x.txt', name: 'y.txt' }] },
    });
    expect((await namesIn(await bench.get('/files/g/replace.zip'))).map((n) => n.name)).toEqual(['y.txt']);
  });

  it('refuses entry names that are not clean relative paths, and duplicates, before reading a source', async () => {
    await bench.put('/files/g/x.txt', 'x');
    const before = tree();
    for (const name of [
      '../x.txt',
      '/etc/x',
      'a/../../x',
      'a\\b.txt',
      'C:x.txt',
      '.htaccess',
      'dir/',
      'a//b',
      'CON.txt',
      '%2e%2e/x',
    ]) {
      expect(
        await bench.error('{zip entries=$e dest="/files/g/bad.zip"}', {
          vars: { e: [{ url: '/files/g/x.txt', name }] },
        }),
        name,
      ).toMatchObject({ code: 'E_PATH_DENIED', line: 1 });
    }
    const dup = [
      { url: '/files/g/x.txt', name: 'a.txt' },
      { url: '/files/g/x.txt', name: 'a.txt' },
    ];
    expect(await bench.error('{zip entries=$e dest="/files/g/bad.zip"}', { vars: { e: dup } })).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
    });
    for (const e of [[], 'x', [{ url: '/files/g/x.txt' }], ['not an array']]) {
      expect(
        await bench.error('{zip entries=$e dest="/files/g/bad.zip"}', { vars: { e } }),
        JSON.stringify(e),
      ).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    }
    expect(tree()).toEqual(before);
  });

  it('takes sources from /files/g or https only, and writes under /files/g only', async () => {
    await bench.put('/files/g/x.txt', 'x');
    const before = tree();
    const one = (url: string) => [
      { url: '/files/g/x.txt', name: 'first.txt' },
      { url, name: 'second.txt' },
    ];
    for (const url of ['/files/user/example/notes.txt', 'http://public.test/x', '/files/a/x.txt', 'ftp://x/y']) {
      expect(
        await bench.error('{zip entries=$e dest="/files/g/bad.zip"}', { vars: { e: one(url) } }),
        url,
      ).toMatchObject({ code: 'E_PATH_DENIED' });
    }
    expect(
      await bench.error('{zip entries=$e dest="/files/a/bad.zip"}', { vars: { e: one('/files/g/x.txt') } }),
    ).toMatchObject({ code: 'E_PATH_DENIED' });
    expect(
      await bench.error('{zip entries=$e dest="/files/g/bad.zip" bucket="b"}', { vars: { e: one('/files/g/x.txt') } }),
    ).toMatchObject({ code: 'E_PATH_DENIED' });
    expect(
      await bench.error('{zip entries=$e dest="/files/g/bad.zip"}', { vars: { e: one('https://10.0.0.1/x') } }),
    ).toMatchObject({ code: 'E_SSRF_DENIED' });
    expect(tree()).toEqual(before);
  });

  it(`refuses more than ${MAX_ARCHIVE_ENTRIES} entries and sources over ${MAX_ARCHIVE_INPUT_BYTES} bytes in all`, async () => {
    const many = Array.from({ length: MAX_ARCHIVE_ENTRIES + 1 }, (_, i) => ({
      url: '/files/g/x.txt',
      name: `${i}.txt`,
    }));
    expect(await bench.error('{zip entries=$e dest="/files/g/many.zip"}', { vars: { e: many } })).toMatchObject({
      code: 'E_SIZE_LIMIT',
    });
    const real = path.join(bench.site.dir, 'files', 'g', 'half');
    mkdirSync(real, { recursive: true });
    for (const n of ['a.bin', 'b.bin']) {
      const fd = openSync(path.join(real, n), 'w');
      ftruncateSync(fd, MAX_ARCHIVE_INPUT_BYTES / 2 + 1);
      closeSync(fd);
    }
    const e = [
      { url: '/files/g/half/a.bin', name: 'a.bin' },
      { url: '/files/g/half/b.bin', name: 'b.bin' },
    ];
    expect(await bench.error('{zip entries=$e dest="/files/g/half.zip"}', { vars: { e } })).toMatchObject({
      code: 'E_SIZE_LIMIT',
    });
    expect(await bench.exists('/files/g/half.zip')).toBe(false);
    expect(await bench.exists('/files/g/many.zip')).toBe(false);
  });
});
