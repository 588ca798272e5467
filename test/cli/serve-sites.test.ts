/**
 * `smartcage serve --sites` as an operator runs it (the built bin/smartcage.js): a broken
 * site.json at start is one line and exit 3; a site folder added later appears on SIGHUP; one
 * sandbox worker serves every site; the tenancy options are checked.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, runBin } from '../support/bin.js';
import { eventually, startServe, stopServe } from '../support/serve-process.js';

let dir: string;
beforeAll(() => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), 'smartcage-serve-sites-'));
  expect(runBin(['site', 'init', join(dir, 'one')]).status).toBe(0);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function copySite(to: string, key: string): void {
  cpSync(join(dir, 'one'), join(dir, to), { recursive: true });
  const file = join(dir, to, 'site.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), site_key: key }));
}

describe('smartcage serve --sites', () => {
  it('a site folder added later appears on SIGHUP', async () => {
    const s = await startServe(['--port', '0', '--sites', dir], { waitMs: 15_000 });
    try {
      const url = s.url;
      expect((await fetch(`${url}/sites/one/rcms-api/1/news`)).status).toBe(200);
      expect((await fetch(`${url}/sites/later/rcms-api/1/news`)).status).toBe(404);
      // The list of sites in Japanese with ?lang=ja; its links keep the language.
      const ja = await (await fetch(`${url}/?lang=ja`)).text();
      expect(ja).toContain('<h1>サイト</h1>');
      expect(ja).toContain('href="/sites/one/?lang=ja"');
      copySite('later', 'later');
      s.child.kill('SIGHUP');
      await eventually(() => s.out().includes('site later: added'));
      const r = await fetch(`${url}/sites/later/rcms-api/1/news`);
      expect(r.status).toBe(200);
      // The sample data was copied with the other site's tenant: the new site has its own, none.
      expect((await r.json()) as unknown).toMatchObject({ list: [] });
    } finally {
      await stopServe(s);
      rmSync(join(dir, 'later'), { recursive: true, force: true });
    }
  }, 60_000);

  it('a broken site.json at start is one line and exit 3', () => {
    copySite('broken', 'broken');
    writeFileSync(join(dir, 'broken', 'site.json'), '{"site_key": "broken", "nope": 1}');
    try {
      const r = runBin(['serve', '--port', '0', '--sites', dir]);
      expect(r.status).toBe(3);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(
        /^smartcage serve: .*broken.*site\.json: unknown key "nope" \(known: \$schema, site_key,/,
      );
    } finally {
      rmSync(join(dir, 'broken'), { recursive: true, force: true });
    }
  });

  it('a tenancy option that is not a number is one line and exit 3', () => {
    const r = runBin(['serve', '--port', '0', '--sites', dir, '--pg-pool-max', 'lots']);
    expect(r.status).toBe(3);
    expect(r.stderr).toBe('smartcage serve: --pg-pool-max needs a whole number from 1 to 10000, not "lots"\n');
  });
});
