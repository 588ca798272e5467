/** write_file, save_file, put_file, remove_file, remove_dir, rename_file, copy_s3_temp_file, storage_url through templates. */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { templateError } from '../../../support/engine.js';
import { createEngine } from '../../../../src/index.js';
import { TemplateError } from '../../../../src/errors.js';
import { verifyStorageUrl } from '../../../../src/host-plugins/files/storage-url.js';
import { EXAMPLE_UPLOAD_ID, STORAGE_BASE_URL, STORAGE_KEY } from '../../../support/host/files.js';
import { setup } from './helpers.js';

const s = setup({ limits: { quotaBytes: 64 * 1024 } });
const read = (vpath: string, tenant = 'default') => fs.readFileSync(s.real(vpath, tenant), 'utf8');

describe('write_file', () => {
  it('replaces, then appends whole records; var receives the virtual path', async () => {
    expect(
      await s.render(
        '{write_file path="/files/user/w/a.csv" var=p value="h\\n"}{write_file path="/files/user/w/a.csv" var=p value=$r is_append=1}{$p}',
        { vars: { r: ['a b', 'x"y', 3, true, null] } },
      ),
    ).toBe('/files/user/w/a.csv');
    expect(read('/files/user/w/a.csv')).toBe('h\n"a b","x""y",3,1,\n');
    await s.render('{write_file path="/files/user/w/a.csv" var=p value="new"}');
    expect(read('/files/user/w/a.csv')).toBe('new');
  });
  it('without path: a unique file under /files/temp that read_file and put_file accept', async () => {
    const out = await s.render(
      '{write_file var=p value="t1"}{write_file var=q value="t2"}{$p}|{$q}|{if $p != $q}unique{/if}|{read_file path=$p}{$row}{/read_file}',
    );
    const [p, q, unique, content] = out.split('|');
    expect(p).toMatch(/^\/files\/temp\/[0-9a-f-]{36}$/);
    expect(q).toMatch(/^\/files\/temp\//);
    expect(unique).toBe('unique');
    expect(content).toBe('t1');
  });
  it('is_append=1 without path is E_BAD_COMBINATION; is_append must be 0 or 1', async () => {
    expect(await s.fail('{write_file var=p value="x" is_append=1}')).toBe('E_BAD_COMBINATION');
    expect(await s.fail('{write_file path="/files/user/w/b.txt" var=p value="x" is_append=2}')).toBe('E_BAD_ATTRIBUTE');
  });
  it('roots: temp, user, ltd; not cloud or content roots', async () => {
    for (const p of [
      '/files/g/x.txt',
      '/files/a/x.txt',
      '/files/topics/x.txt',
      '/files/user',
      '/files/temp/a/../../user/x',
    ]) {
      expect(await s.fail(`{write_file path="${p}" var=v value="y"}`)).toBe('E_PATH_DENIED');
    }
  });
  it('quota: E_QUOTA before writing; a refused replacement leaves the old file; appends stop at whole records', async () => {
    const q = setup({ limits: { quotaBytes: 10_000 } });
    await q.render('{write_file path="/files/user/keep.txt" var=v value="original"}');
    expect(
      await q.fail('{write_file path="/files/user/keep.txt" var=v value=$big}', { vars: { big: 'x'.repeat(20_000) } }),
    ).toBe('E_QUOTA');
    expect(fs.readFileSync(q.real('/files/user/keep.txt'), 'utf8')).toBe('original');
    expect(
      await q.fail(
        '{section name=i loop=100}{write_file path="/files/user/log" var=v value=$r is_append=1}{/section}',
        { vars: { r: 'y'.repeat(999) + '\n' } },
      ),
    ).toBe('E_QUOTA');
    const size = fs.statSync(q.real('/files/user/log')).size;
    expect(size % 1000).toBe(0);
    expect(size + 8).toBeLessThanOrEqual(10_000);
    expect(fs.readdirSync(q.real('/files/user')).filter((n) => n.startsWith('.'))).toEqual([]);
  });
  it('entry quota: empty files in new folders stop with E_QUOTA at the {write_file} line', async () => {
    const q = setup({ seed: false, limits: { maxStorageEntries: 100 } });
    const e = await templateError(
      q.engine.render(
        '{section name=i loop=1000}\n{write_file path="/files/user/`$smarty.section.i.index`/a/b/x" var=v value=""}{/section}',
        { name: 'entries.tpl' },
      ),
    );
    expect(e.code).toBe('E_QUOTA');
    expect(e.line).toBe(2);
    expect(e.message).toMatch(/at most 100 files and folders/);
    // 10 root folders, then 4 entries per write
    expect(fs.readdirSync(q.real('/files/user')).length).toBe(Math.ceil((100 - 10) / 4));
  });
});

describe('save_file', () => {
  it('saves under /files/temp and stores the path; nothing without var', async () => {
    const p = await s.render('{save_file value="saved" var=p}{$p}');
    expect(p).toMatch(/^\/files\/temp\//);
    expect(read(p)).toBe('saved');
    const before = fs.readdirSync(s.real('/files/temp')).length;
    const r = await s.logs('{save_file value="lost"}');
    expect(fs.readdirSync(s.real('/files/temp')).length).toBe(before);
    expect(r.logs.some((l) => l.level === 'warning')).toBe(true);
  });
});

describe('put_file', () => {
  it('value to local storage, tmp_path to cloud storage', async () => {
    await s.render(
      '{put_file value="v" files_path="/files/ltd/put/v.txt"}{save_file value="t" var=t}{put_file tmp_path=$t path="/files/a/put/t.txt"}',
    );
    expect(read('/files/ltd/put/v.txt')).toBe('v');
    expect(read('/files/a/put/t.txt')).toBe('t');
  });
  it('exactly one source and one destination', async () => {
    for (const t of [
      '{put_file path="/files/g/x.txt"}',
      '{put_file value="x"}',
      '{put_file value="x" tmp_path="/files/temp/a" path="/files/g/x.txt"}',
      '{put_file value="x" path="/files/g/x.txt" files_path="/files/user/x.txt"}',
    ]) {
      expect(await s.fail(t)).toBe('E_BAD_COMBINATION');
    }
  });
  it('bucket must be empty; roots per attribute; missing source', async () => {
    expect(await s.fail('{put_file value="x" path="/files/g/x.txt" bucket="other-site"}')).toBe('E_PATH_DENIED');
    expect(await s.fail('{put_file value="x" path="/files/user/x.txt"}')).toBe('E_PATH_DENIED');
    expect(await s.fail('{put_file value="x" files_path="/files/g/x.txt"}')).toBe('E_PATH_DENIED');
    expect(await s.fail('{put_file tmp_path="/files/user/example/notes.txt" files_path="/files/user/x.txt"}')).toBe(
      'E_PATH_DENIED',
    );
    expect(await s.fail('{put_file tmp_path="/files/temp/none" files_path="/files/user/x.txt"}')).toBe(
      'E_FILE_NOT_FOUND',
    );
  });
});

describe('remove_file, remove_dir, rename_file', () => {
  it('remove_file: true, then false (with a warning); without status_var a missing file is an error', async () => {
    s.put('/files/user/rm/a.txt', 'x');
    const r = await s.logs(
      '{remove_file path="/files/user/rm/a.txt" status_var=a}{remove_file path="/files/user/rm/a.txt" status_var=b}{if $a}T{/if}{if $b === false}F{/if}',
    );
    expect(r.output).toBe('TF');
    expect(r.logs.some((l) => l.level === 'warning')).toBe(true);
    expect(fs.existsSync(s.real('/files/user/rm/a.txt'))).toBe(false);
    expect(await s.fail('{remove_file path="/files/user/rm/a.txt"}')).toBe('E_FILE_NOT_FOUND');
    expect(await s.render('{remove_file path="/files/user/rm" status_var=d}{if !$d}folder{/if}')).toBe('folder');
    expect(await s.fail('{remove_file path="/files/g/x.txt" bucket="b"}')).toBe('E_PATH_DENIED');
  });
  it('remove_dir: only empty folders; never a root', async () => {
    s.put('/files/ltd/rd/sub/a.txt', 'x');
    expect(await s.render('{remove_dir path="/files/ltd/rd" status_var=a}{if !$a}kept{/if}')).toBe('kept');
    expect(fs.existsSync(s.real('/files/ltd/rd/sub/a.txt'))).toBe(true);
    fs.rmSync(s.real('/files/ltd/rd/sub/a.txt'));
    expect(await s.render('{remove_dir path="/files/ltd/rd/sub" status_var=a}{if $a}gone{/if}')).toBe('gone');
    for (const p of ['/files/ltd', '/files/user/', '/files/temp/x', '/files/g/x'])
      expect(await s.fail(`{remove_dir path="${p}" status_var=s}`)).toBe('E_PATH_DENIED');
  });
  it('rename_file: cloud only, no leading slash; missing source gives false', async () => {
    s.put('/files/g/mv/a.txt', 'moved');
    expect(
      await s.render(
        '{rename_file src_path="files/g/mv/a.txt" dest_path="files/a/mv/deep/b.txt" status_var=s}{if $s}ok{/if}',
      ),
    ).toBe('ok');
    expect(read('/files/a/mv/deep/b.txt')).toBe('moved');
    expect(
      await s.render(
        '{rename_file src_path="files/g/mv/a.txt" dest_path="files/g/mv/c.txt" status_var=s}{if $s === false}missing{/if}',
      ),
    ).toBe('missing');
    for (const [a, b] of [
      ['/files/a/mv/deep/b.txt', 'files/g/x.txt'],
      ['files/a/mv/deep/b.txt', '/files/g/x.txt'],
      ['files/user/example/notes.txt', 'files/g/x.txt'],
      ['files/a/mv/deep/b.txt', 'files/ltd/x.txt'],
    ]) {
      expect(await s.fail(`{rename_file src_path="${a}" dest_path="${b}" status_var=s}`)).toBe('E_PATH_DENIED');
    }
  });
});

describe('copy_s3_temp_file', () => {
  const own = EXAMPLE_UPLOAD_ID;
  it("copies the site's own upload to cloud storage or temp", async () => {
    expect(
      await s.render(`{copy_s3_temp_file file_id="${own}" dest_path="/files/g/up/c.txt" status_var=s}{if $s}ok{/if}`),
    ).toBe('ok');
    expect(read('/files/g/up/c.txt')).toBe('uploaded\n');
    await s.render(`{copy_s3_temp_file file_id="${own}" dest_path="/files/temp/c.txt"}`);
    expect(read('/files/temp/c.txt')).toBe('uploaded\n');
  });
  it('another site, another form, a local destination or a missing upload: false with status_var, else an error', async () => {
    const other = own.replace('/default/', '/othersite/');
    const cases: [string, string, string][] = [
      [other, '/files/g/up/x.txt', 'E_PATH_DENIED'],
      ['/' + own, '/files/g/up/x.txt', 'E_PATH_DENIED'],
      [own.replace(/\.txt$/, ''), '/files/g/up/x.txt', 'E_FILE_NOT_FOUND'],
      ['files/temp/upload/default/not-a-uuid', '/files/g/up/x.txt', 'E_PATH_DENIED'],
      [own, '/files/user/x.txt', 'E_PATH_DENIED'],
      [own, '/files/g', 'E_PATH_DENIED'],
    ];
    for (const [id, dest, code] of cases) {
      expect(
        await s.render(
          `{copy_s3_temp_file file_id="${id}" dest_path="${dest}" status_var=s}{if $s === false}false{/if}`,
        ),
      ).toBe('false');
      expect(await s.fail(`{copy_s3_temp_file file_id="${id}" dest_path="${dest}"}`)).toBe(code);
    }
    expect(fs.existsSync(s.real('/files/g/up/x.txt'))).toBe(false);
  });
});

describe('storage_url', () => {
  it('a signed URL that verifies for this tenant and path only, expiring in 167 hours by default', async () => {
    const url = await s.render('{storage_url var=u path="/files/g/example/report.txt"}{$u}');
    const u = new URL(url);
    expect(u.origin + u.pathname).toBe(`${STORAGE_BASE_URL}/files/g/example/report.txt`);
    const expires = Number(u.searchParams.get('expires'));
    expect(Math.abs(expires - (Date.now() / 1000 + 167 * 3600))).toBeLessThan(120);
    expect(verifyStorageUrl(url, STORAGE_BASE_URL, STORAGE_KEY, 'default')).toBe('/files/g/example/report.txt');
    expect(verifyStorageUrl(url, STORAGE_BASE_URL, STORAGE_KEY, 'other')).toBeNull();
    expect(
      verifyStorageUrl(url.replace('report.txt', 'other.txt'), STORAGE_BASE_URL, STORAGE_KEY, 'default'),
    ).toBeNull();
    expect(
      verifyStorageUrl(
        url.replace(`expires=${expires}`, `expires=${expires + 1}`),
        STORAGE_BASE_URL,
        STORAGE_KEY,
        'default',
      ),
    ).toBeNull();
    expect(
      verifyStorageUrl(url, STORAGE_BASE_URL, new TextEncoder().encode('another-key-0123456789'), 'default'),
    ).toBeNull();
    expect(verifyStorageUrl(url, STORAGE_BASE_URL, STORAGE_KEY, 'default', expires)).toBeNull();
  });
  it('non-ASCII names are percent-encoded and verify', async () => {
    s.put('/files/g/写真 1.txt', 'x');
    const url = await s.render('{storage_url var=u path="/files/g/写真 1.txt" expire="+1 hour"}{$u}');
    expect(url).toContain('/files/g/%E5%86%99%E7%9C%9F%201.txt?');
    expect(verifyStorageUrl(url, STORAGE_BASE_URL, STORAGE_KEY, 'default')).toBe('/files/g/写真 1.txt');
  });
  it('expire: strtotime text, in the future, at most 168 hours', async () => {
    expect(
      await s.render('{storage_url var=u path="/files/g/example/report.txt" expire="+168 hour"}{if $u}ok{/if}'),
    ).toBe('ok');
    for (const e of ['+169 hour', '-1 hour', 'yesterday', 'not a time', '+1 year']) {
      expect(await s.fail(`{storage_url var=u path="/files/g/example/report.txt" expire="${e}"}`)).toBe(
        'E_BAD_ATTRIBUTE',
      );
    }
  });
  it('huge timestamps and relative amounts are refused at once; expire is at most 100 characters', async () => {
    // strtotime runs on the host here: these walked the calendar month by month for seconds to hours
    const huge = [
      '@99999999999999',
      '@99999999999999999',
      '@9223372036854775807',
      '+9999999999999 minutes',
      '+9999999999999 years',
      '-9999999999999 weeks',
      '+9999999999999 monday',
      '+9999999999999 months',
    ];
    for (const e of huge)
      expect(await s.fail(`{storage_url var=u path="/files/g/example/report.txt" expire="${e}"}`)).toBe(
        'E_BAD_ATTRIBUTE',
      );
    const padded = '+1 hour'.padEnd(100);
    expect(
      await s.render(`{storage_url var=u path="/files/g/example/report.txt" expire="${padded}"}{if $u}ok{/if}`),
    ).toBe('ok');
    expect(await s.fail(`{storage_url var=u path="/files/g/example/report.txt" expire="${padded} "}`)).toBe(
      'E_BAD_ATTRIBUTE',
    );
  });
  it("expire as a wall time is read in the render's time zone (the site's), not a fixed one", async () => {
    for (const timezone of ['UTC', 'Asia/Tokyo', 'America/New_York']) {
      const e = createEngine({ workers: 0, timezone, host: s.fh.adapters });
      try {
        const url = (
          await e.render('{storage_url var=u path="/files/g/example/report.txt" expire="tomorrow 12:00"}{$u}')
        ).output;
        const expires = Number(new URL(url).searchParams.get('expires'));
        const wall = new Intl.DateTimeFormat('en-GB', {
          timeZone: timezone,
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }).format(new Date(expires * 1000));
        expect(wall, timezone).toBe('12:00');
      } finally {
        await e.close();
      }
    }
  });
  it('missing file or a folder: null; local paths refused; no var refused', async () => {
    expect(await s.render('{storage_url var=u path="/files/g/nope.txt"}{if $u === null}null{/if}')).toBe('null');
    expect(await s.render('{storage_url var=u path="/files/g/example"}{if $u === null}null{/if}')).toBe('null');
    expect(await s.fail('{storage_url var=u path="/files/user/example/notes.txt"}')).toBe('E_PATH_DENIED');
    expect(await s.fail('{storage_url path="/files/g/example/report.txt"}')).toBe('E_BAD_ATTRIBUTE');
  });
});

describe('hosts without the capability', () => {
  it('E_HOST_CAPABILITY: the files plugins without HostAdapters.files, storage_url without storageUrls', async () => {
    const e = createEngine({ workers: 0, host: { files: s.fh.adapters.files } });
    const e2 = createEngine({ workers: 0, host: {} });
    try {
      const code = async (eng: typeof e, t: string) =>
        eng.render(t).then(
          () => 'none',
          (err: unknown) => (err instanceof TemplateError ? err.code : 'other'),
        );
      expect(await code(e, '{storage_url var=u path="/files/g/example/report.txt"}')).toBe('E_HOST_CAPABILITY');
      expect(await code(e2, '{read_file path="/files/user/example/notes.txt"}{/read_file}')).toBe('E_HOST_CAPABILITY');
      expect(await code(e2, '{write_file var=p value="x"}')).toBe('E_HOST_CAPABILITY');
    } finally {
      await e.close();
      await e2.close();
    }
  });
});
