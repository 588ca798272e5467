/**
 * The files plugins on a site whose site.json `storage` is an S3-compatible bucket (s3rver on
 * 127.0.0.1): read_file, write_file, put_file, remove_file, rename_file, storage_url (a presigned
 * URL that reads the file back) and get_file, through the real engine.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/index.js';
import { openSite, type Site } from '../../../src/site/open-site.js';
import { SiteConfigError } from '../../../src/site/config.js';
import { startS3, useS3Storage, type TestS3 } from '../../support/s3-server.js';
import { eachBackend, sampleSite } from '../../site/support/backends.js';
import { forgeZip } from '../../../src/security/zip-forge.js';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.close();
});

eachBackend('files plugins on S3 storage', (backend) => {
  let base: Awaited<ReturnType<typeof sampleSite>>;
  let site: Site;
  let engine: Engine;
  let bucket: string;
  const render = async (tpl: string) => (await engine.render(tpl, { identity: site.identity() })).output;

  beforeAll(async () => {
    base = await sampleSite(backend);
    await base.close();
    bucket = await s3.bucket();
    useS3Storage(base.dir, s3, bucket);
    site = await openSite(base.dir);
    engine = createEngine({ ...site.engineOptions(), workers: 1 });
  });
  afterAll(async () => {
    await engine?.close();
    await site?.close();
    await base?.done().catch(() => undefined);
  });

  it('write_file and put_file write objects under the site prefix; read_file reads them back', async () => {
    await render('{put_file value="hello s3" path="/files/g/public/hi.txt"}{write_file var=p value="a,b"}');
    expect(await s3.rawGet(bucket, 'site/files/g/public/hi.txt')).toBe('hello s3');
    await render('{put_file value="local root" files_path="/files/user/hi.txt"}');
    expect(await s3.rawGet(bucket, 'site/files/user/hi.txt')).toBe('local root');
    expect(await render('{read_file path="/files/user/hi.txt" row=l}{$l}{/read_file}')).toBe('local root');
    const p = await render(
      '{write_file var=p value="x"}{write_file path="/files/user/log.txt" var=q value="one\\n" is_append=1}{write_file path="/files/user/log.txt" var=q value="two\\n" is_append=1}{$p}',
    );
    expect(await s3.rawGet(bucket, `site${p}`)).toBe('x');
    expect(await render('{read_file path="/files/user/log.txt" row=l}[{$l}]{/read_file}')).toBe('[one][two]');
  });

  it('rename_file and remove_file move and delete objects', async () => {
    await render(
      '{put_file value="m" path="/files/g/mv/a.txt"}{rename_file src_path="files/g/mv/a.txt" dest_path="files/a/mv/b.txt" status_var=s}',
    );
    expect(await s3.rawGet(bucket, 'site/files/a/mv/b.txt')).toBe('m');
    expect(await s3.rawGet(bucket, 'site/files/g/mv/a.txt')).toBeNull();
    expect(
      await render(
        '{remove_file path="/files/a/mv/b.txt" status_var=s}{remove_file path="/files/a/mv/b.txt" status_var=t}{if $s}T{/if}{if $t === false}F{/if}',
      ),
    ).toBe('TF');
    expect(await s3.rawGet(bucket, 'site/files/a/mv/b.txt')).toBeNull();
  });

  it('zip, unzip and gzip work on the bucket; a zip-slip archive is refused with no object written', async () => {
    await render(
      '{put_file value="report A" path="/files/g/in/a.txt"}{put_file value="レポート B" path="/files/g/in/b.txt"}',
    );
    const zipped = await render(
      '{assign_array var=a keys="url,name" values="/files/g/in/a.txt,a.txt"}{assign_array var=b keys="url,name" values="/files/g/in/b.txt,日本語/b.txt"}{append var=e value=$a}{append var=e value=$b}{zip entries=$e dest="/files/g/out/in.zip"}{$zip_dest}',
    );
    expect(zipped).toBe('/files/g/out/in.zip');
    expect(
      await render(
        '{unzip src="/files/g/out/in.zip" dest="/files/g/un"}{foreach from=$unzip_result.files item=f}{$f};{/foreach}',
      ),
    ).toBe('/files/g/un/a.txt;/files/g/un/日本語/b.txt;');
    expect(await s3.rawGet(bucket, 'site/files/g/un/日本語/b.txt')).toBe('レポート B');
    expect(await render('{gzip file_url="/files/g/in/a.txt" dest="/files/g/gz/a.txt.gz"}{$gzip_dest}')).toBe(
      '/files/g/gz/a.txt.gz',
    );
    expect(await s3.rawGet(bucket, 'site/files/g/gz/a.txt.gz')).not.toBeNull();

    const before = await s3.keys(bucket);
    await s3.rawPut(
      bucket,
      'site/files/g/in/slip.zip',
      forgeZip([
        { name: 'ok.txt', data: Buffer.from('ok') },
        { name: '../../escape.txt', data: Buffer.from('x') },
      ]),
    );
    await expect(render('{unzip src="/files/g/in/slip.zip" dest="/files/g/slip"}')).rejects.toMatchObject({
      code: 'E_PATH_DENIED',
    });
    expect((await s3.keys(bucket)).filter((k) => !before.includes(k))).toEqual(['site/files/g/in/slip.zip']);
  });

  it('storage_url is a presigned URL of the bucket that reads the file; a missing file gives null', async () => {
    await render('{put_file value="linked" path="/files/g/private/doc.txt"}');
    const u = await render('{storage_url var=u path="/files/g/private/doc.txt" expire="+2 hour"}{$u}');
    expect(u.startsWith(`${s3.endpoint}/${bucket}/site/files/g/private/doc.txt?`)).toBe(true);
    const q = new URL(u).searchParams;
    // the plugin's clock and the presigner's may be a second apart
    expect(['7199', '7200']).toContain(q.get('X-Amz-Expires'));
    expect(await (await fetch(u)).text()).toBe('linked');
    expect(await render('{storage_url var=u path="/files/g/private/none.txt"}{if $u === null}none{/if}')).toBe('none');
    const week = await render('{storage_url var=u path="/files/g/private/doc.txt"}{$u}');
    expect(Number(new URL(week).searchParams.get('X-Amz-Expires'))).toBeGreaterThanOrEqual(167 * 3600 - 1);
  });

  it('get_file copies from the bucket to /files/temp, or into var', async () => {
    await render('{put_file value="got" path="/files/g/src.txt"}');
    expect(await render('{get_file path="/files/g/src.txt" var=c save=false}{$c}')).toBe('got');
    const p = await render('{get_file path="/files/g/src.txt" var=p}{$p}');
    expect(await s3.rawGet(bucket, `site${p}`)).toBe('got');
  });
});

it('site.json storage is read strictly, and its secrets must exist', async () => {
  const { parseSiteConfig } = await import('../../../src/site/config.js');
  const base = { site_key: 'k', timezone: 'Asia/Tokyo', lang: 'ja' };
  expect(parseSiteConfig(base, 'x').storage).toEqual({ type: 'local' });
  const s3cfg = {
    type: 's3',
    region: 'us-east-1',
    bucket: 'my-bucket',
    access_key_secret: 'K',
    secret_key_secret: 'S',
  };
  expect(parseSiteConfig({ ...base, storage: s3cfg }, 'x').storage).toEqual(s3cfg);
  for (const bad of [
    { type: 'local', bucket: 'x' },
    { type: 'gcs' },
    { ...s3cfg, access_key: 'AKIA...' },
    { ...s3cfg, bucket: 'Bad_Bucket' },
    { ...s3cfg, prefix: '../other' },
    { ...s3cfg, endpoint: 'ftp://x' },
    { type: 's3', region: 'us-east-1', bucket: 'my-bucket', access_key_secret: 'K' },
  ]) {
    expect(() => parseSiteConfig({ ...base, storage: bad }, 'x'), JSON.stringify(bad)).toThrow(SiteConfigError);
  }
});

eachBackend('a site on S3 storage without its secrets', (backend) => {
  it('does not open, naming the missing secret', async () => {
    const site = await sampleSite(backend);
    await site.close();
    useS3Storage(site.dir, s3, 'some-bucket');
    writeFileSync(path.join(site.dir, 'secrets.json'), JSON.stringify({ S3_KEY: { value: 'k' } }));
    await expect(openSite(site.dir)).rejects.toThrow(/"S3_SECRET"/);
    await site.done().catch(() => undefined);
  });
});
