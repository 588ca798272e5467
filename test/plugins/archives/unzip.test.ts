/**
 * {unzip} on the local site of each backend: legacy-encoded names (a cp932 zip and an EUC-JP zip
 * made here) through detect_order, overwrite, the default dest, https sources, a failure while
 * writing (the files this call made are removed) and the render's wall-clock budget.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { createEngine, TemplateError } from '../../../src/index.js';
import { eachBackend } from '../../site/support/backends.js';
import { archiveBench } from '../../support/archives/archive-bench.js';
import { listTree, treeChanges } from '../../support/archives/store-listing.js';
import { forgeZip } from '../../../src/security/zip-forge.js';
import { encodeLegacy } from '../../support/archives/legacy-encodings.js';

const FILES = '{foreach from=$unzip_result.files item=f}{$f} {/foreach}';
const legacy = (label: 'shift_jis' | 'euc-jp') =>
  forgeZip(
    ['資料/表.txt', '日本語.csv'].map((name) => ({
      name: encodeLegacy(name, label),
      utf8Flag: false,
      data: Buffer.from(name),
    })),
  );

eachBackend('unzip', (backend) => {
  const bench = archiveBench(backend);
  const tree = () => listTree(path.join(bench.site.dir, 'files'));

  it('decodes names without the UTF-8 flag by detect_order: cp932 by default, EUC-JP when asked', async () => {
    await bench.put('/files/g/in/sjis.zip', legacy('shift_jis'));
    await bench.put('/files/g/in/euc.zip', legacy('euc-jp'));
    expect(await bench.render(`{unzip src="/files/g/in/sjis.zip" dest="/files/g/sjis"}${FILES}`)).toBe(
      '/files/g/sjis/資料/表.txt /files/g/sjis/日本語.csv ',
    );
    expect((await bench.get('/files/g/sjis/資料/表.txt')).toString()).toBe('資料/表.txt');
    expect(
      await bench.render(`{unzip src="/files/g/in/euc.zip" dest="/files/g/euc" detect_order="EUC-JP"}${FILES}`),
    ).toBe('/files/g/euc/資料/表.txt /files/g/euc/日本語.csv ');
    expect(
      await bench.render(`{unzip src="/files/g/in/euc.zip" dest="/files/g/euc2" detect_order=$o}${FILES}`, {
        vars: { o: ['UTF-8', 'eucJP-win'] },
      }),
    ).toBe('/files/g/euc2/資料/表.txt /files/g/euc2/日本語.csv ');
  });

  it('refuses a name no encoding of detect_order reads, and an encoding it does not know', async () => {
    await bench.put('/files/g/in/sjis.zip', legacy('shift_jis'));
    const before = tree();
    expect(
      await bench.error('{unzip src="/files/g/in/sjis.zip" dest="/files/g/x" detect_order="utf8,EUC-JP"}'),
    ).toMatchObject({ code: 'E_PATH_DENIED', message: expect.stringContaining('(name-encoding)') });
    expect(
      await bench.error('{unzip src="/files/g/in/sjis.zip" dest="/files/g/x" detect_order="latin1"}'),
    ).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    expect(tree()).toEqual(before);
  });

  it('with overwrite 0 (the default) refuses the call when a file exists, writing nothing; 1 replaces', async () => {
    await bench.put(
      '/files/g/in/two.zip',
      forgeZip([
        { name: 'a.txt', data: Buffer.from('new a') },
        { name: 'b.txt', data: Buffer.from('new b') },
      ]),
    );
    await bench.put('/files/g/ow/b.txt', 'old b');
    const before = tree();
    expect(await bench.error('{unzip src="/files/g/in/two.zip" dest="/files/g/ow"}')).toMatchObject({
      code: 'E_FILE_FAILED',
      message: expect.stringContaining('/files/g/ow/b.txt'),
    });
    expect(await bench.error('{unzip src="/files/g/in/two.zip" dest="/files/g/ow" overwrite=0}')).toMatchObject({
      code: 'E_FILE_FAILED',
    });
    expect(tree()).toEqual(before);
    expect(await bench.render(`{unzip src="/files/g/in/two.zip" dest="/files/g/ow" overwrite=1}${FILES}`)).toBe(
      '/files/g/ow/a.txt /files/g/ow/b.txt ',
    );
    expect((await bench.get('/files/g/ow/b.txt')).toString()).toBe('new b');
    expect((await bench.error('{unzip src="/files/g/in/two.zip" overwrite=2}')).code).toMatch(/^E_BAD_ATTR/);
  });

  it('extracts next to a stored archive without dest, and from an https URL into a new folder', async () => {
    await bench.put('/files/g/photos/trip.zip', forgeZip([{ name: 'p1.jpg', data: Buffer.from('jpg') }]));
    expect(
      await bench.render('{unzip src="/files/g/photos/trip.zip"}{$unzip_result.dest} {$unzip_result.files.0}'),
    ).toBe('/files/g/photos/trip /files/g/photos/trip/p1.jpg');
    bench.serve.set('/dl/pack.zip', forgeZip([{ name: 'readme.txt', data: Buffer.from('hello') }]));
    const dest = await bench.render('{unzip src=$u}{$unzip_result.dest}', { vars: { u: bench.url('/dl/pack.zip') } });
    expect(dest).toMatch(/^\/files\/g\/archives\/[0-9a-f-]{36}$/);
    expect((await bench.get(`${dest}/readme.txt`)).toString()).toBe('hello');
  });

  it('takes src from /files/g or https only and extracts under /files/g only', async () => {
    await bench.put('/files/g/in/one.zip', forgeZip([{ name: 'a.txt', data: Buffer.from('a') }]));
    const before = tree();
    for (const t of [
      '{unzip src="/files/user/example/notes.txt" dest="/files/g/x"}',
      '{unzip src="http://public.test/a.zip" dest="/files/g/x"}',
      '{unzip src="/files/g/in/one.zip" dest="/files/user/x"}',
      '{unzip src="/files/g/in/one.zip" dest="/files/g"}',
      '{unzip src="/files/g/in/one.zip" dest="/files/g/x" bucket="another"}',
    ]) {
      expect(await bench.error(t), t).toMatchObject({ code: 'E_PATH_DENIED', line: 1 });
    }
    expect(await bench.error('{unzip src="https://169.254.169.254/latest" dest="/files/g/x"}')).toMatchObject({
      code: 'E_SSRF_DENIED',
    });
    expect(tree()).toEqual(before);
  });

  it('removes the files it made when a write fails halfway (a folder where the second file goes)', async () => {
    await bench.put(
      '/files/g/in/three.zip',
      forgeZip(['a.txt', 'b.txt', 'c.txt'].map((name) => ({ name, data: Buffer.from(name) }))),
    );
    await bench.put('/files/g/half/b.txt/inside.txt', 'a folder in the way');
    const before = tree();
    expect(await bench.error('{unzip src="/files/g/in/three.zip" dest="/files/g/half" overwrite=1}')).toMatchObject({
      code: 'E_FILE_FAILED',
    });
    expect(treeChanges(before, tree())).toEqual({ added: [], removed: [] });
  });
});

eachBackend('unzip against the wall clock', (backend) => {
  const bench = archiveBench(backend);

  it('stops between entries when the render is out of time, and leaves none of its files', async () => {
    const entries = Array.from({ length: 4000 }, (_, i) => ({ name: `f/${i}.txt`, data: Buffer.from(`file ${i}\n`) }));
    await bench.put('/files/g/in/many.zip', forgeZip(entries));
    const site = bench.site;
    const engine = createEngine({ ...site.engineOptions(), workers: 1, limits: { wallMs: 400 } });
    try {
      const before = tree(site.dir);
      const err = await engine
        .render('{unzip src="/files/g/in/many.zip" dest="/files/g/slow"}', { identity: site.identity() })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err).toBeInstanceOf(TemplateError);
      expect((err as TemplateError).code).toBe('E_WALL_TIMEOUT');
      // The host side stops at its next check and removes what it wrote.
      let changes = treeChanges(before, tree(site.dir));
      for (let i = 0; i < 100 && changes.added.length > 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        changes = treeChanges(before, tree(site.dir));
      }
      expect(changes.added.filter((p) => !/^g\/slow(\/f)?$/.test(p))).toEqual([]);
    } finally {
      await engine.close();
    }
  });
});

function tree(dir: string): Map<string, string> {
  return listTree(path.join(dir, 'files'));
}
