/**
 * The archive plugins write to the render identity's storage and nowhere else: two tenants on one
 * test host (a TenantFiles each), the same template rendered for each, and each tenant's folder
 * holding only its own results; a source path names the tenant's own file, never another's.
 */
import { afterAll, expect, it } from 'vitest';
import { testEngine } from '../../support/engine.js';
import { createFilesTestHost } from '../../support/host/files.js';
import { listTree } from '../../support/archives/store-listing.js';
import { forgeZip } from '../../../src/security/zip-forge.js';
import { parseVirtualPath } from '../../../src/host-adapters/files/virtual-path.js';

const files = createFilesTestHost();
const engine = testEngine({ host: files.host });
afterAll(() => files.cleanup());
const store = (tenant: string) => files.of(tenant).files!;

it("zip, gzip and unzip of one template land in each tenant's own storage", async () => {
  await store('alpha').writeAtomic(parseVirtualPath('/files/g/in/own.txt'), new TextEncoder().encode('alpha data'));
  await store('beta').writeAtomic(parseVirtualPath('/files/g/in/own.txt'), new TextEncoder().encode('beta data'));
  await store('alpha').writeAtomic(
    parseVirtualPath('/files/g/in/a.zip'),
    forgeZip([{ name: 'from-alpha.txt', data: Buffer.from('alpha') }]),
  );
  const before = listTree(files.rootOf('beta'));
  const t =
    '{gzip file_url="/files/g/in/own.txt"}{zip entries=$e dest="/files/g/out/own.zip"}{unzip src="/files/g/in/a.zip" dest="/files/g/out/x"}{$unzip_result.files.0}';
  const out = await engine.render(t, {
    identity: { tenant: 'alpha' },
    vars: { e: [{ url: '/files/g/in/own.txt', name: 'own.txt' }] },
  });
  expect(out.output).toBe('/files/g/out/x/from-alpha.txt');
  expect(listTree(files.rootOf('beta'))).toEqual(before);
  expect([...listTree(files.rootOf('alpha')).keys()]).toEqual(
    expect.arrayContaining(['g/in/own.txt.gz', 'g/out/own.zip', 'g/out/x/from-alpha.txt']),
  );
  // For beta, a.zip does not exist: the path names beta's storage, not alpha's.
  await expect(
    engine.render('{unzip src="/files/g/in/a.zip" dest="/files/g/out/x"}', { identity: { tenant: 'beta' } }),
  ).rejects.toMatchObject({ code: 'E_FILE_NOT_FOUND' });
  expect(listTree(files.rootOf('beta'))).toEqual(before);
});
