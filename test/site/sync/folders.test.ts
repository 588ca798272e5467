/**
 * The file half of a site sync (src/site/sync/folders.ts): staged copies swapped in whole, or
 * not at all. A swap that fails midway puts back what it moved; `undo` after a swap restores the
 * target as it was (what run-sync does when the database transaction fails after the swap).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stage } from '../../../src/site/sync/folders.js';

let base: string;
let source: string;
let target: string;
const put = (dir: string, name: string, text: string) => {
  mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  writeFileSync(path.join(dir, name), text);
};
const read = (name: string) => readFileSync(path.join(target, name), 'utf8');

beforeEach(() => {
  base = mkdtempSync(path.join(tmpdir(), 'smartcage-sync-files-'));
  source = path.join(base, 'source');
  target = path.join(base, 'target');
  put(source, 'site.json', JSON.stringify({ site_key: 'source', endpoints: [{ path: 'new' }] }));
  put(source, 'templates/a.tpl', 'source a');
  put(source, 'functions/f.tpl', 'source f');
  put(source, 'files/user/photo.txt', 'source photo');
  put(
    target,
    'site.json',
    JSON.stringify({
      site_key: 'target',
      endpoints: [],
      apis: [{ api_id: 1 }],
      mail: { verified_domains: ['t.example'] },
    }),
  );
  put(target, 'templates/a.tpl', 'target a');
  put(target, 'templates/only-target.tpl', 'target only');
  put(target, 'functions/f.tpl', 'target f');
  put(target, 'files/user/photo.txt', 'target photo');
  mkdirSync(path.join(target, 'data'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const untouched = () => {
  expect(read('templates/a.tpl')).toBe('target a');
  expect(read('templates/only-target.tpl')).toBe('target only');
  expect(read('functions/f.tpl')).toBe('target f');
  expect(JSON.parse(read('site.json'))).toMatchObject({ site_key: 'target', endpoints: [] });
};

describe('staged sync files', () => {
  it("swaps in the source's design folders and settings, keeping the rest of the target's site.json", async () => {
    const s = await stage(source, target, 1);
    untouched();
    await s.swap();
    await s.remove();
    expect(read('templates/a.tpl')).toBe('source a');
    expect(existsSync(path.join(target, 'templates/only-target.tpl'))).toBe(false);
    expect(existsSync(path.join(target, 'mail'))).toBe(true);
    expect(read('files/user/photo.txt')).toBe('target photo');
    expect(JSON.parse(read('site.json'))).toEqual({
      site_key: 'target',
      endpoints: [{ path: 'new' }],
      mail: { verified_domains: ['t.example'] },
    });
    expect(readdirSync(path.join(target, 'data'))).toEqual([]);
  });

  it('full also swaps the storage folders', async () => {
    const s = await stage(source, target, 2);
    await s.swap();
    await s.remove();
    expect(read('files/user/photo.txt')).toBe('source photo');
  });

  it('a swap that fails midway puts back what it had moved', async () => {
    const s = await stage(source, target, 1);
    const staging = readdirSync(path.join(target, 'data'))[0]!;
    rmSync(path.join(target, 'data', staging, 'new', 'mail'), { recursive: true });
    await expect(s.swap()).rejects.toThrow();
    untouched();
    await s.remove();
    expect(readdirSync(path.join(target, 'data'))).toEqual([]);
  });

  it('undo after a whole swap restores the target', async () => {
    const s = await stage(source, target, 2);
    await s.swap();
    await s.undo();
    await s.remove();
    untouched();
    expect(read('files/user/photo.txt')).toBe('target photo');
  });
});
