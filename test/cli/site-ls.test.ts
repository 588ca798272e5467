/**
 * `smartcage site ls` on the sample site (bin/smartcage.js, as a user runs it): the overview and
 * each listing as a table and as JSON, names in the site's language, times in its zone; wrong
 * usage shows the subcommand's usage; it changes nothing.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initSite } from '../../src/site/init.js';
import { requireBuild, runBin } from '../support/bin.js';

let base: string;
let dir: string;
beforeAll(async () => {
  requireBuild();
  base = mkdtempSync(path.join(tmpdir(), 'smartcage-site-ls-'));
  dir = path.join(base, 'demo');
  await initSite(dir);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const ls = (...args: string[]) => runBin(['site', 'ls', dir, ...args]);
const json = <T>(...args: string[]): T => {
  const r = ls(...args, '--json');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as T;
};

describe('smartcage site ls', () => {
  it('alone: the settings and how many of each thing the site holds', () => {
    expect(json()).toEqual({
      site_key: 'demo',
      timezone: 'Asia/Tokyo',
      languages: 'ja,en',
      database: 'sqlite (data/site.sqlite)',
      contents: 28,
      members: 8,
      tags: 10,
      endpoints: 2,
      batches: 1,
    });
    expect(ls().stdout).toMatch(/^site_key: demo\ntimezone: Asia\/Tokyo\n/);
  });

  it("contents: every content with its subject in the site's language, the draft closed", () => {
    const rows = json<{ id: number; group: number; open: boolean; slug: string; subject: string }[]>('contents');
    expect(rows).toHaveLength(28);
    expect(rows[0]).toEqual({
      id: 1,
      group: 1,
      ymd: '2023-10-01',
      open: true,
      slug: 'news-1',
      subject: '新しいウェブサイトを公開しました',
    });
    expect(rows.find((r) => r.id === 26)).toMatchObject({ open: false, slug: 'roadmap-2024' });
    const text = ls('contents').stdout.split('\n');
    expect(text[0]).toBe('id  group  ymd         open  slug          subject');
    // Wide characters count two columns: the subject starts where its header does.
    expect(text[1]).toBe('1   1      2023-10-01  yes   news-1        新しいウェブサイトを公開しました');
  });

  it('members, tags, endpoints, batches', () => {
    const members = json<{ id: number; groups: string; super_user: boolean }[]>('members');
    expect(members.map((m) => m.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(members[0]).toMatchObject({ id: 1, super_user: true });
    expect(members[1]).toMatchObject({ id: 2, groups: '1', super_user: false });
    const tags = json<{ category: string; name: string }[]>('tags');
    expect(tags).toHaveLength(10);
    expect(tags[0]).toMatchObject({ category: 'ジャンル', name: 'お知らせ' });
    expect(json('endpoints')).toEqual([
      { method: 'GET', path: '/rcms-api/1/news', function: 'functions/news.tpl', security: 'none' },
      { method: 'GET', path: '/rcms-api/1/me', function: 'functions/me.tpl', security: 'none' },
    ]);
    expect(json('batches')).toEqual([{ id: 1, slug: 'notify', schedule: null, last_run: null }]);
  });

  it("files PATH: a folder of the storage, times in the site's zone with its offset", () => {
    const files = json<{ path: string; size: number; modified: string }[]>('files', '/files/user/');
    expect(files).toEqual([
      {
        path: '/files/user/sample-page.html',
        size: statSync(path.join(dir, 'files/user/sample-page.html')).size,
        modified: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+09:00$/) as string,
      },
    ]);
    expect(json('files')).toEqual(files);
    const outside = ls('files', '/etc/');
    expect(outside.status).toBe(2);
    expect(outside.stderr).toMatch(/^smartcage site: "\/etc\/": not under a known root/);
  });

  it('wrong usage: one line and the usage of site ls, exit 2', () => {
    const r = ls('nope');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('site ls lists contents, members, tags, files, batches, endpoints, not "nope"');
    expect(r.stderr).toContain(
      'Usage: smartcage site ls DIR [contents|members|tags|files [PATH]|batches|endpoints] [--json]',
    );
    expect(r.stderr).not.toContain('SUBCOMMAND');
    expect(runBin(['site', 'ls', '--help']).stdout).toContain('Usage: smartcage site ls DIR');
    const missing = runBin(['site', 'ls', path.join(base, 'none')]);
    expect(missing.status).toBe(3);
    expect(missing.stderr).toBe(`smartcage site ls: ${path.join(base, 'none')}: no such folder\n`);
  });
});
