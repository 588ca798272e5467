/** read_file and read_dir through templates, with the engine and real files in a temp dir. */
import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { setup } from './helpers.js';
import { templateError } from '../../../support/engine.js';
import { MAX_SCANNED_PER_RENDER } from '../../../../src/host-plugins/files/read_dir.js';

const s = setup({ limits: { maxReadBytes: 64 * 1024, maxEntries: 50 } });

describe('read_file', () => {
  it('txt: one item per line, CRLF and a missing final newline handled, row defaults to row', async () => {
    s.put('/files/user/r/a.txt', 'one\r\ntwo\n\nfour');
    expect(await s.render('{read_file path="/files/user/r/a.txt"}[{$row}]{/read_file}')).toBe('[one][two][][four]');
  });
  it('keeps bytes that are not valid UTF-8', async () => {
    s.put('/files/user/r/bin.txt', Buffer.from([0x61, 0xff, 0x62, 0x0a]));
    expect(await s.render('{read_file path="/files/user/r/bin.txt" row=l}{$l|strlen}{/read_file}')).toBe('3');
  });
  it('csv: fgetcsv records, quoted fields across lines, blank line is [null]', async () => {
    s.put('/files/user/r/a.csv', 'id,note\n1,"two\nlines"\n\n2,"a ""b"""\n');
    const out = await s.render(
      '{read_file path="/files/user/r/a.csv" row=r type="csv"}{$r|@count}:{$r.1|default:"NULL"}|{/read_file}',
    );
    expect(out).toBe('2:note|2:two\nlines|1:NULL|2:a "b"|');
  });
  it('jsonl: decoded lines, blank lines skipped, invalid lines null with a warning', async () => {
    s.put('/files/user/r/a.jsonl', '{"a":{"b":1}}\n\n[1,2]\nnot json\n');
    const r = await s.logs(
      '{read_file path="/files/user/r/a.jsonl" row=j type="jsonl"}{if $j === null}null{else}{$j|@count}{/if};{/read_file}',
    );
    expect(r.output).toBe('1;2;null;');
    expect(r.logs.some((l) => l.level === 'warning' && l.message.includes('line 4'))).toBe(true);
  });
  it('binary (NUL) files, oversized files, too many lines, missing files are errors', async () => {
    s.put('/files/user/r/zero.txt', 'a\0b');
    expect(await s.fail('{read_file path="/files/user/r/zero.txt"}{/read_file}')).toBe('E_FILE_FAILED');
    s.put('/files/user/r/big.txt', 'x'.repeat(64 * 1024 + 1));
    expect(await s.fail('{read_file path="/files/user/r/big.txt"}{/read_file}')).toBe('E_SIZE_LIMIT');
    expect(await s.fail('{read_file path="/files/user/r/none.txt"}{/read_file}')).toBe('E_FILE_NOT_FOUND');
  });
  it('more than 100 000 lines is E_SIZE_LIMIT', async () => {
    const s2 = setup({ limits: { maxReadBytes: 1024 * 1024 } });
    s2.put('/files/user/lines.txt', '\n'.repeat(100_001));
    expect(await s2.fail('{read_file path="/files/user/lines.txt"}{/read_file}')).toBe('E_SIZE_LIMIT');
  });
  it('csv and jsonl: values past the bounds are E_SIZE_LIMIT before the host makes them (D337)', async () => {
    const s2 = setup({ limits: { maxReadBytes: 8 * 1024 * 1024 } });
    // One record of 99,999 fields is a host call's worth (the record is one more value); one more field is not.
    s2.put('/files/user/wide.csv', ','.repeat(99_998));
    expect(await s2.render('{read_file path="/files/user/wide.csv" type="csv" row=r}{$r|@count}{/read_file}')).toBe(
      '99999',
    );
    s2.put('/files/user/wider.csv', ','.repeat(99_999));
    expect(await s2.fail('{read_file path="/files/user/wider.csv" type="csv"}{/read_file}')).toBe('E_SIZE_LIMIT');
    // A million values a file: 100,000 records of nine fields, and not one record more.
    s2.put('/files/user/rows.csv', 'a,b,c,d,e,f,g,h,i\n'.repeat(100_000));
    expect(await s2.render('{read_file path="/files/user/rows.csv" type="csv" row=r}{/read_file}{$r.8}')).toBe('i');
    s2.put('/files/user/more.csv', 'a,b,c,d,e,f,g,h,i,j\n'.repeat(100_000));
    expect(await s2.fail('{read_file path="/files/user/more.csv" type="csv"}{/read_file}')).toBe('E_SIZE_LIMIT');
    // jsonl: a line is bounded by its commas and brackets before it is decoded (commas in strings count too).
    s2.put('/files/user/wide.jsonl', `[${'0,'.repeat(99_999)}0]\n`);
    expect(await s2.fail('{read_file path="/files/user/wide.jsonl" type="jsonl"}{/read_file}')).toBe('E_SIZE_LIMIT');
    s2.put('/files/user/ok.jsonl', `[${'0,'.repeat(99_998)}0]\n"a,b"\n`);
    expect(
      await s2.render(
        '{read_file path="/files/user/ok.jsonl" type="jsonl" row=j}{if is_array($j)}{$j|@count}{else}{$j}{/if};{/read_file}',
      ),
    ).toBe('99999;a,b;');
  });
  it('roots: local storage and the two documented content roots, never cloud or foreign', async () => {
    s.put('/files/topics/t.txt', 'topic');
    s.put('/files/member/ext/m.txt', 'member');
    expect(
      await s.render(
        '{read_file path="/files/topics/t.txt"}{$row}{/read_file}{read_file path="/files/member/ext/m.txt"}{$row}{/read_file}',
      ),
    ).toBe('topicmember');
    for (const p of [
      '/files/g/example/report.txt',
      '/files/d/x',
      'files/user/example/notes.txt',
      '/files/user/../g/x',
      '/etc/passwd',
    ]) {
      expect(await s.fail(`{read_file path="${p}"}{/read_file}`)).toBe('E_PATH_DENIED');
    }
  });
  it('ignore_permission only in batch and admin-test renders', async () => {
    const t = '{read_file path="/files/topics/t.txt" ignore_permission=true}{$row}{/read_file}';
    expect(await s.fail(t)).toBe('E_PERMISSION_DENIED');
    expect(await s.render(t, { identity: { context: 'batch' } })).toBe('topic');
    expect(await s.render(t, { identity: { context: 'admin-test' } })).toBe('topic');
  });
  it('break and continue work in the body', async () => {
    s.put('/files/user/r/n.txt', '1\n2\n3\n4\n');
    expect(
      await s.render(
        '{read_file path="/files/user/r/n.txt" row=n}{if $n == 2}{continue}{/if}{if $n == 4}{break}{/if}{$n}{/read_file}',
      ),
    ).toBe('13');
  });
  it("tenants are separate: the same path reads the tenant's own file", async () => {
    s.put('/files/user/own.txt', 'A', 'default');
    s.put('/files/user/own.txt', 'B', 'other');
    expect(await s.render('{read_file path="/files/user/own.txt"}{$row}{/read_file}')).toBe('A');
    expect(
      await s.render('{read_file path="/files/user/own.txt"}{$row}{/read_file}', { identity: { tenant: 'other' } }),
    ).toBe('B');
  });
});

describe('read_dir', () => {
  it('entries: path, size, ctime (content), mtime (attributes), is_dir; sorted, folder before content', async () => {
    s.put('/files/ltd/d/b.txt', 'bb');
    s.put('/files/ltd/d/a/x.txt', 'x');
    fs.utimesSync(s.real('/files/ltd/d/b.txt'), 1_600_000_000, 1_600_000_000);
    const out = await s.render(
      '{read_dir path="/files/ltd/d" recursive=true file_var=f}{$f.path} {$f.size} {if $f.is_dir}D{else}F{/if}|{/read_dir}',
    );
    expect(out).toBe('/files/ltd/d/a 0 D|/files/ltd/d/a/x.txt 1 F|/files/ltd/d/b.txt 2 F|');
    const times = await s.render(
      '{read_dir path="/files/ltd/d" file_var=f type="file"}{$f.ctime} {$f.mtime}{/read_dir}',
    );
    const [ctime, mtime] = times.split(' ').map(Number);
    expect(ctime).toBe(1_600_000_000); // content modification time
    expect(Math.abs(mtime - Date.now() / 1000)).toBeLessThan(600); // attribute change (the utimes call)
  });
  it('not recursive by default; type filters; name_only gives the path; file_var defaults to file', async () => {
    expect(await s.render('{read_dir path="/files/ltd/d"}{$file.path};{/read_dir}')).toBe(
      '/files/ltd/d/a;/files/ltd/d/b.txt;',
    );
    expect(await s.render('{read_dir path="/files/ltd/d" type="dir" name_only=true file_var=p}{$p}{/read_dir}')).toBe(
      '/files/ltd/d/a',
    );
    expect(
      await s.render(
        '{read_dir path="/files/ltd/d" recursive=true type="file" name_only=true file_var=p}{$p};{/read_dir}',
      ),
    ).toBe('/files/ltd/d/a/x.txt;/files/ltd/d/b.txt;');
  });
  it('hidden files and symlinks are skipped', async () => {
    s.put('/files/ltd/h/.hidden', 'x');
    s.put('/files/ltd/h/shown.txt', 'x');
    fs.symlinkSync('/etc', s.real('/files/ltd/h/etc-link'));
    expect(
      await s.render('{read_dir path="/files/ltd/h" recursive=true name_only=true file_var=p}{$p};{/read_dir}'),
    ).toBe('/files/ltd/h/shown.txt;');
  });
  it('pattern: PHP regex on the path; i modifier, anchors, alternation', async () => {
    s.put('/files/ltd/p/A.CSV', '');
    s.put('/files/ltd/p/b.csv', '');
    s.put('/files/ltd/p/c.txt', '');
    s.put('/files/ltd/p/写真.jpg', '');
    const ls = (pat: string) =>
      s.render(
        `{read_dir path="/files/ltd/p" name_only=true file_var=p pattern='${pat}'}{$p|replace:"/files/ltd/p/":""};{/read_dir}`,
      );
    expect(await ls('/\\.csv$/')).toBe('b.csv;');
    expect(await ls('/\\.csv$/i')).toBe('A.CSV;b.csv;');
    expect(await ls('#/(b|c)\\.[a-z]+$#')).toBe('b.csv;c.txt;');
    expect(await ls('/写真/')).toBe('写真.jpg;');
    expect(await ls('/^\\/files\\/ltd\\/p\\/[^\\/]{1,2}\\./m')).toBe('A.CSV;b.csv;c.txt;');
  });
  it('pattern PHP cannot compile: nothing matches, with a warning', async () => {
    const r = await s.logs('{read_dir path="/files/ltd/p" file_var=f pattern="/(unclosed/"}x{/read_dir}done');
    expect(r.output).toBe('done');
    expect(r.logs.some((l) => l.level === 'warning' && l.message.includes('read_dir'))).toBe(true);
  });
  it("patterns run in the sandbox with preg_match's full syntax: backreferences, lookaround, u", async () => {
    const ls = (pat: string) =>
      s.render(
        `{read_dir path="/files/ltd/p" name_only=true file_var=p pattern='${pat}'}{$p|replace:"/files/ltd/p/":""};{/read_dir}`,
      );
    s.put('/files/ltd/q/xx.txt', '');
    s.put('/files/ltd/q/xy.txt', '');
    expect(
      await s.render(
        `{read_dir path="/files/ltd/q" name_only=true file_var=p pattern='/\\/(.)\\1\\./'}{$p};{/read_dir}`,
      ),
    ).toBe('/files/ltd/q/xx.txt;');
    expect(await ls('/(?<=\\/)b/')).toBe('b.csv;');
    expect(await ls('/(?!.*csv)\\/[a-z]\\.\\w+$/i')).toBe('c.txt;');
    expect(await ls('/^.{15}\\.jpg$/u')).toBe('写真.jpg;');
    expect(await ls('/a{1,5000}/i')).toBe('A.CSV;');
  });
  it("a catastrophic pattern costs the render's CPU budget, not the host's", async () => {
    for (let i = 0; i < 20; i++) s.put(`/files/ltd/evil/${i}-${'a'.repeat(40)}!`, '');
    const e = await templateError(
      s.engine.render('{read_dir path="/files/ltd/evil" file_var=f\n pattern="/(a+)+$/"}x{/read_dir}done', {
        name: 'evil.tpl',
      }),
    );
    expect(e.code).toBe('E_CPU_TIMEOUT');
    expect(e.line).toBe(1);
  });
  it('per render: all listings together read a bounded number of directory entries', async () => {
    for (let i = 0; i < 40; i++) s.put(`/files/ltd/budget/f${i}`, '');
    // 40 entries a listing, MAX_SCANNED_PER_RENDER in all: the listing that would pass it is refused.
    const fits = Math.floor(MAX_SCANNED_PER_RENDER / 40);
    const r = await s.render(
      `{section name=i loop=${fits}}{read_dir path="/files/ltd/budget" name_only=true file_var=p}{/read_dir}{/section}ok`,
    );
    expect(r).toBe('ok');
    const e = await templateError(
      s.engine.render(
        `{section name=i loop=${fits + 1}}\n{read_dir path="/files/ltd/budget" name_only=true file_var=p}{/read_dir}{/section}ok`,
        { name: 'many.tpl' },
      ),
    );
    expect(e.code).toBe('E_SIZE_LIMIT');
    expect(e.line).toBe(2);
    expect(e.message).toMatch(/listings of one render may read at most/);
  });
  it('entry cap: E_SIZE_LIMIT', async () => {
    for (let i = 0; i < 51; i++) s.put(`/files/ltd/many/f${i}`, '');
    expect(await s.fail('{read_dir path="/files/ltd/many" file_var=f}{/read_dir}')).toBe('E_SIZE_LIMIT');
  });
  it('roots: /files/user and /files/ltd only, roots themselves allowed', async () => {
    expect(await s.render('{read_dir path="/files/ltd/" type="dir" name_only=true file_var=p}{/read_dir}ok')).toBe(
      'ok',
    );
    for (const p of ['/files/temp', '/files/g', '/files/g/example', '/files', '/files/user/..', 'files/user']) {
      expect(await s.fail(`{read_dir path="${p}" file_var=f}{/read_dir}`)).toBe('E_PATH_DENIED');
    }
    expect(await s.fail('{read_dir path="/files/user/no-such-folder" file_var=f}{/read_dir}')).toBe('E_FILE_NOT_FOUND');
  });
});
