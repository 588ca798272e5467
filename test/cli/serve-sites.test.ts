/**
 * `smartcage serve --sites` as an operator runs it (the built bin/smartcage.js): a broken
 * site.json at start is one line and exit 3; a site folder added later appears on SIGHUP; one
 * sandbox worker serves every site; the tenancy options are checked.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerOf } from '../../src/site/server/affinity.js';
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

  it("the sites of one owner that --isolate-groups names share an isolate, the others' stay apart", async () => {
    copySite('two', 'two');
    copySite('three', 'three');
    const groups = join(tmpdir(), `smartcage-groups-${process.pid}.json`);
    writeFileSync(groups, JSON.stringify({ acme: ['one', 'two'] }));
    const warm = async (args: string[]) => {
      // One process: with --processes N each child would warm the sites its hash gives it.
      const s = await startServe(['--port', '0', '--sites', dir, '--processes', '1', ...args], { waitMs: 15_000 });
      try {
        for (const site of ['one', 'two', 'three'])
          expect((await fetch(`${s.url}/sites/${site}/rcms-api/1/news`)).status).toBe(200);
        const m = /^smartcage_isolates_warm (\d+)$/m.exec(await (await fetch(`${s.url}/metrics`)).text());
        return Number(m?.[1]);
      } finally {
        await stopServe(s);
      }
    };
    try {
      expect(await warm(['--isolate-groups', groups, '--tenants-per-isolate', '4'])).toBe(2);
      // The same sites without the file, or at one tenant per isolate: an isolate each.
      expect(await warm(['--tenants-per-isolate', '4'])).toBe(3);
      expect(await warm(['--isolate-groups', groups])).toBe(3);
    } finally {
      for (const d of ['two', 'three']) rmSync(join(dir, d), { recursive: true, force: true });
      rmSync(groups, { force: true });
    }
  }, 90_000);

  it("under --processes 2 a group's sites are served by one process, whose isolates they share; SIGHUP regroups", async () => {
    // A site whose own key another process owns than 'one''s: only the group brings them together.
    const other = ['two', 'three', 'four', 'five', 'six'].find((k) => ownerOf(k, [0, 1]) !== ownerOf('one', [0, 1]))!;
    copySite(other, other);
    const groups = join(tmpdir(), `smartcage-groups-p2-${process.pid}.json`);
    writeFileSync(groups, JSON.stringify({ acme: ['one'] }));
    const args = ['--isolate-groups', groups, '--tenants-per-isolate', '4', '--isolate-idle-ms', '1000'];
    const s = await startServe(['--port', '0', '--sites', dir, '--processes', '2', ...args], { waitMs: 15_000 });
    const metric = async (name: string) =>
      Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(await (await fetch(`${s.url}/metrics`)).text())?.[1]);
    const warm = async () => {
      // Each on a connection of its own (routed by the primary), then both on one (the child that
      // got it passes a site it does not own on, D238).
      for (const site of ['one', other]) {
        const r = await fetch(`${s.url}/sites/${site}/rcms-api/1/news`, { headers: { connection: 'close' } });
        expect(r.status).toBe(200);
      }
      for (const site of [other, 'one'])
        expect((await fetch(`${s.url}/sites/${site}/rcms-api/1/news`)).status).toBe(200);
      return metric('smartcage_isolates_warm');
    };
    try {
      expect(await eventually(() => s.out().includes('2 processes listening'))).toBe(true);
      expect(await warm()).toBe(2);
      // The primary reads the file again too: it routes the new group's sites to one process.
      writeFileSync(groups, JSON.stringify({ acme: ['one', other] }));
      s.child.kill('SIGHUP');
      expect(await eventually(() => s.out().split('isolate groups: 2 sites in 1 group').length === 3)).toBe(true);
      expect(await eventually(async () => (await metric('smartcage_isolates_warm')) === 0)).toBe(true);
      expect(await warm()).toBe(1);
    } finally {
      await stopServe(s);
      rmSync(join(dir, other), { recursive: true, force: true });
      rmSync(groups, { force: true });
    }
  }, 90_000);

  it('SIGHUP reads the --isolate-groups file again', async () => {
    copySite('two', 'two');
    copySite('three', 'three');
    const groups = join(tmpdir(), `smartcage-groups-hup-${process.pid}.json`);
    writeFileSync(groups, JSON.stringify({ acme: ['one'] }));
    const args = ['--isolate-groups', groups, '--tenants-per-isolate', '4', '--isolate-idle-ms', '1000'];
    const s = await startServe(['--port', '0', '--sites', dir, '--processes', '1', ...args], {
      waitMs: 15_000,
    });
    const warm = async () => {
      for (const site of ['one', 'two', 'three'])
        expect((await fetch(`${s.url}/sites/${site}/rcms-api/1/news`)).status).toBe(200);
      const m = /^smartcage_isolates_warm (\d+)$/m.exec(await (await fetch(`${s.url}/metrics`)).text());
      return Number(m?.[1]);
    };
    try {
      expect(await warm()).toBe(3);
      writeFileSync(groups, JSON.stringify({ acme: ['one', 'two', 'three'] }));
      s.child.kill('SIGHUP');
      expect(await eventually(() => s.out().includes('isolate groups: 3 sites in 1 group'))).toBe(true);
      // The isolates made before go once idle (1 s); the three sites then share one.
      const idle = async () => /^smartcage_isolates_warm 0$/m.test(await (await fetch(`${s.url}/metrics`)).text());
      expect(await eventually(idle)).toBe(true);
      expect(await warm()).toBe(1);
    } finally {
      await stopServe(s);
      for (const d of ['two', 'three']) rmSync(join(dir, d), { recursive: true, force: true });
      rmSync(groups, { force: true });
    }
  }, 90_000);

  it('an --isolate-groups file that names a site twice is one line and exit 3', () => {
    const groups = join(tmpdir(), `smartcage-groups-twice-${process.pid}.json`);
    writeFileSync(groups, JSON.stringify({ a: ['one'], b: ['one'] }));
    try {
      const r = runBin(['serve', '--port', '0', '--sites', dir, '--isolate-groups', groups]);
      expect(r.status).toBe(3);
      expect(r.stderr).toBe(`smartcage serve: --isolate-groups ${groups}: site "one" is in two groups, "a" and "b"\n`);
    } finally {
      rmSync(groups, { force: true });
    }
  });

  it('a tenancy option that is not a number is one line and exit 3', () => {
    const r = runBin(['serve', '--port', '0', '--sites', dir, '--pg-pool-max', 'lots']);
    expect(r.status).toBe(3);
    expect(r.stderr).toBe('smartcage serve: --pg-pool-max needs a whole number from 1 to 10000, not "lots"\n');
  });
});
