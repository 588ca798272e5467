/**
 * callback_batch and data of {gzip}, {zip} and {unzip} on the local site of each backend, with a
 * BatchesAdapter that records what it is asked (the embedder's adapter shape of
 * src/host-api/adapters/batches.ts): queued once the result is written, for the render's
 * tenant and request, with data as the template gave it; and every refusal before any work.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { toJS } from '../../../src/value/value.js';
import { parseVirtualPath } from '../../../src/host-adapters/files/virtual-path.js';
import { eachBackend } from '../../site/support/backends.js';
import { archiveBench } from '../../support/archives/archive-bench.js';
import { listTree } from '../../support/archives/store-listing.js';
import { forgeZip } from '../../../src/security/zip-forge.js';
import { MAX_BATCH_DATA_BYTES } from '../../../src/host-plugins/batches/start.js';
import type { BatchStart } from '../../../src/host-api/adapters/batches.js';
import { testEngine } from '../../support/engine.js';
import { testHost } from '../../support/test-host.js';

eachBackend('archive callbacks', (backend) => {
  const bench = archiveBench(backend);
  const tree = () => listTree(path.join(bench.site.dir, 'files'));

  it("queue the batch with data after the result is written, for the render's tenant and request", async () => {
    await bench.put('/files/g/cb/a.txt', 'a');
    await bench.put('/files/g/cb/in.zip', forgeZip([{ name: 'x.txt', data: Buffer.from('x') }]));
    const data = { ids: [3, 1, 2], note: '完了', nested: { k: 'v' } };
    const cases: [string, string][] = [
      ['gzip', '{gzip file_url="/files/g/cb/a.txt" dest="/files/g/cb/a.gz" callback_batch="after_archive" data=$d}'],
      ['zip', '{zip entries=$e dest="/files/g/cb/a.zip" callback_batch="after_archive" data=$d}'],
      ['unzip', '{unzip src="/files/g/cb/in.zip" dest="/files/g/cb/out" callback_batch="after_archive" data=$d}'],
    ];
    const written: Record<string, string> = {
      gzip: '/files/g/cb/a.gz',
      zip: '/files/g/cb/a.zip',
      unzip: '/files/g/cb/out/x.txt',
    };
    for (const [plugin, t] of cases) {
      bench.queued.length = 0;
      bench.expectWritten.path = written[plugin]!;
      await bench.render(t, { vars: { d: data, e: [{ url: '/files/g/cb/a.txt', name: 'a.txt' }] } });
      expect(bench.queued, plugin).toHaveLength(1);
      const q = bench.queued[0]!;
      expect(q).toMatchObject({
        tenant: bench.site.tenant,
        batch: { slug: 'after_archive' },
        module: null,
        origin: plugin,
        written: true,
      });
      expect(typeof q.requestId).toBe('string');
      expect(toJS(q.data)).toEqual(data);
    }
    bench.expectWritten.path = null;
  });

  it('say so when the site has no such batch, the result being written all the same', async () => {
    await bench.put('/files/g/cb/a.txt', 'a');
    const e = await bench.error(
      '{gzip file_url="/files/g/cb/a.txt" dest="/files/g/cb/nobatch.gz" callback_batch="no_such_batch"}',
    );
    expect(e).toMatchObject({ code: 'E_NOT_FOUND', message: expect.stringContaining('wrote /files/g/cb/nobatch.gz') });
    expect(await bench.exists('/files/g/cb/nobatch.gz')).toBe(true);
  });

  it('refuse data without callback_batch, a bad batch name and data over the cap, before any work', async () => {
    await bench.put('/files/g/cb/a.txt', 'a');
    const before = tree();
    bench.queued.length = 0;
    expect(
      await bench.error('{gzip file_url="/files/g/cb/a.txt" dest="/files/g/cb/r1.gz" data=$d}', { vars: { d: [1] } }),
    ).toMatchObject({ code: 'E_BAD_COMBINATION', line: 1 });
    expect(
      await bench.error('{gzip file_url="/files/g/cb/a.txt" dest="/files/g/cb/r2.gz" callback_batch="../x"}'),
    ).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    const big = { blob: 'x'.repeat(MAX_BATCH_DATA_BYTES) };
    expect(
      await bench.error('{zip entries=$e dest="/files/g/cb/r3.zip" callback_batch="after_archive" data=$d}', {
        vars: { d: big, e: [{ url: '/files/g/cb/a.txt', name: 'a.txt' }] },
      }),
    ).toMatchObject({ code: 'E_SIZE_LIMIT' });
    expect(tree()).toEqual(before);
    expect(bench.queued).toEqual([]);
  });
});

eachBackend('archive callbacks without the batches adapter', (backend) => {
  const bench = archiveBench(backend, { host: ({ batches: _batches, ...h }) => h });
  it('refuse callback_batch (E_HOST_CAPABILITY) before any work', async () => {
    await bench.put('/files/g/a.txt', 'a');
    const before = listTree(path.join(bench.site.dir, 'files'));
    expect(await bench.error('{gzip file_url="/files/g/a.txt" callback_batch="after_archive"}')).toMatchObject({
      code: 'E_HOST_CAPABILITY',
      line: 1,
    });
    expect(listTree(path.join(bench.site.dir, 'files'))).toEqual(before);
  });
});

const starts: BatchStart[] = [];
const host = testHost();
const engine = testEngine({ host: { ...host, batches: { enqueue: async (start) => (starts.push(start), 1) } } });

it('refuses a secret handle in data, anywhere in it, before any work', async () => {
  const data = [
    '{assign var=d value=$s}',
    '{append var=d value=$s}',
    '{append var=d value="x" index="k"}{append var=inner value=$s index="deep"}{append var=d value=$inner index="n"}',
    '{append var=d value=1 index=$s}',
  ];
  for (const make of data) {
    await expect(
      engine.render(
        `{secret var=s key="EXAMPLE_TOKEN"}${make}{gzip file_url="/files/g/example/report.txt" dest="/files/g/secret.gz" callback_batch="after" data=$d}`,
      ),
    ).rejects.toMatchObject({ code: 'E_SECRET_DENIED' });
  }
  expect(starts).toEqual([]);
  await expect(host.files!.stat(parseVirtualPath('/files/g/secret.gz'))).rejects.toMatchObject({
    code: 'E_FILE_NOT_FOUND',
  });
});
