/**
 * {site_sync} on local sites of one host (site folders side by side, as `serve --sites DIR`
 * serves them), through the real engine, on SQLite and PostgreSQL: what sync types 1, 4 and 2
 * copy and what they leave, who may be synced with whom, the six-hour interval against the
 * render's clock, and that a sync that fails leaves the target as it was.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createEngine, TemplateError, type Engine } from '../../../src/index.js';
import { initSite } from '../../../src/site/init.js';
import { openSite, type Site } from '../../../src/site/open-site.js';
import { eachBackend, type Backend } from '../support/backends.js';
import { FIXED_NOW } from '../../support/engine.js';

const HOUR = 3600;

interface HostSiteBench {
  site: Site;
  key: string;
  dir: string;
  render(source: string, now?: number): Promise<string>;
  failure(source: string, now?: number): Promise<string>;
  one<T extends object>(sql: string, params?: (string | number)[]): Promise<T | undefined>;
  close(): Promise<void>;
}

async function benchOf(dir: string, backend: Backend, parentSite?: string): Promise<HostSiteBench> {
  const key = `s${randomBytes(5).toString('hex')}`;
  await initSite(dir, { siteKey: key, database: backend.url });
  if (parentSite) {
    // The child names its parent before it is opened: a relation both sides name (D158).
    const json = JSON.parse(readFileSync(path.join(dir, 'site.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(path.join(dir, 'site.json'), JSON.stringify({ ...json, parent_site: parentSite }, null, 2));
  }
  const site = await openSite(dir);
  const clock = { now: FIXED_NOW };
  const engine: Engine = createEngine({ ...site.engineOptions(), now: () => clock.now, workers: 1 });
  const render = async (source: string, now = FIXED_NOW) => {
    clock.now = now;
    return (await engine.render(source, { name: 'page.tpl', identity: site.identity() })).output;
  };
  return {
    site,
    key,
    dir,
    render,
    async failure(source, now) {
      try {
        await render(source, now);
      } catch (e) {
        if (e instanceof TemplateError) return `${e.code}@${e.line}`;
        throw e;
      }
      return 'rendered';
    },
    one: (sql, params = []) => site.db.get(sql, [site.tenant, ...params]),
    async close() {
      await engine.close();
      await site.close();
    },
  };
}

const sync = (from: string, type: number, to?: string) =>
  `{site_sync from_site_key="${from}"${to ? ` to_site_key="${to}"` : ''} sync_type=${type}}ok`;

eachBackend('site_sync between sites of one host', (backend) => {
  let base: string;
  let parent: HostSiteBench;
  let child: HostSiteBench;
  let stranger: HostSiteBench;
  let elsewhere: HostSiteBench;
  const file = (b: HostSiteBench, name: string) => readFileSync(path.join(b.dir, name), 'utf8');
  const groupName = async (b: HostSiteBench, id: number) =>
    JSON.parse(
      (await b.one<{ names: string }>('SELECT names FROM topics_groups WHERE tenant = ? AND id = ?', [id]))!.names,
    ) as Record<string, string>;
  const subject = async (b: HostSiteBench, id: number) =>
    (
      await b.one<{ subject: string }>(
        "SELECT subject FROM topic_texts WHERE tenant = ? AND topic_id = ? AND lang = 'ja'",
        [id],
      )
    )?.subject;
  const tagCount = async (b: HostSiteBench) =>
    Number((await b.one<{ n: number }>('SELECT COUNT(*) AS n FROM tag_categories WHERE tenant = ?'))!.n);
  const runs = async (b: HostSiteBench) =>
    b.site.db.all<{ from_site: string; sync_type: number; status: string; error: string }>(
      'SELECT from_site, sync_type, status, error FROM site_sync_runs WHERE tenant = ? ORDER BY run_id',
      [b.site.tenant],
    );

  beforeAll(async () => {
    base = mkdtempSync(path.join(tmpdir(), 'smartcage-host-'));
    mkdirSync(path.join(base, 'host'));
    mkdirSync(path.join(base, 'other-host'));
    parent = await benchOf(path.join(base, 'host', 'parent'), backend);
    child = await benchOf(path.join(base, 'host', 'child'), backend, parent.key);
    stranger = await benchOf(path.join(base, 'host', 'stranger'), backend);
    elsewhere = await benchOf(path.join(base, 'other-host', 'elsewhere'), backend);
    // The parent lists the child (and the site of the other host, which still is not this host's).
    for (const key of [child.key, elsewhere.key]) {
      await parent.site.db.run(
        "INSERT INTO child_sites (tenant, site_key, names, url, lang, timezone, open_flg, inst_at) VALUES (?, ?, '{}', 'http://x.localhost', 'ja', 'Asia/Tokyo', 1, 0)",
        [parent.key, key],
      );
    }
    // The child's design and contents differ from the parent's.
    writeFileSync(path.join(child.dir, 'templates', 'child-only.tpl'), 'child template');
    writeFileSync(path.join(child.dir, 'functions', 'news.tpl'), '{return value="child news"}');
    writeFileSync(path.join(parent.dir, 'templates', 'parent-only.tpl'), 'parent template');
    const childJson = JSON.parse(file(child, 'site.json')) as Record<string, unknown>;
    (childJson.endpoints as unknown[]).push({ path: 'extra', method: 'GET', function: 'news', api_id: 1 });
    writeFileSync(path.join(child.dir, 'site.json'), JSON.stringify(childJson, null, 2));
    await child.site.db.run('UPDATE topics_groups SET names = ? WHERE tenant = ? AND id = 1', [
      '{"ja":"子のニュース","en":"Child news"}',
      child.key,
    ]);
    await child.site.db.run("UPDATE topic_texts SET subject = '子の記事' WHERE tenant = ? AND topic_id = 1", [
      child.key,
    ]);
    await child.site.db.run('DELETE FROM tag_categories WHERE tenant = ? AND tag_category_id = 2', [child.key]);
  });
  afterAll(async () => {
    for (const b of [parent, child, stranger, elsewhere]) await b?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it("refuses sites outside the family, another host's, the same site twice, and an unknown type", async () => {
    expect(await parent.failure(sync(stranger.key, 1))).toBe('E_PERMISSION_DENIED@1');
    expect(await stranger.failure(sync(child.key, 1))).toBe('E_PERMISSION_DENIED@1');
    expect(await parent.failure(sync(elsewhere.key, 1))).toBe('E_NOT_FOUND@1');
    expect(await parent.failure(sync('nosuchsite', 1))).toBe('E_NOT_FOUND@1');
    expect(await parent.failure(sync(parent.key, 1))).toBe('E_BAD_ATTRIBUTE@1');
    expect(await parent.failure(sync(child.key, 1, stranger.key))).toBe('E_PERMISSION_DENIED@1');
    expect(await parent.failure(sync(child.key, 3))).toBe('E_BAD_ATTR@1');
    expect(await parent.failure(`{assign var=t value=3}{site_sync from_site_key="${child.key}" sync_type=$t}`)).toBe(
      'E_BAD_ATTRIBUTE@1',
    );
    expect(await parent.failure('{site_sync from_site_key="../other-host" sync_type=1}')).toBe('E_BAD_ATTRIBUTE@1');
    expect(await runs(parent)).toEqual([]);
    expect(file(parent, 'templates/parent-only.tpl')).toBe('parent template');
  });

  it("refuses a site the parent lists as its child when that site does not name the parent (the sample's `child`)", async () => {
    // As `site init` lists `child`: a real tenant of that key next to it is not family unless it says so.
    await parent.site.db.run(
      "INSERT INTO child_sites (tenant, site_key, names, url, lang, timezone, open_flg, inst_at) VALUES (?, ?, '{}', 'http://x.localhost', 'ja', 'Asia/Tokyo', 1, 0)",
      [parent.key, stranger.key],
    );
    writeFileSync(path.join(stranger.dir, 'templates', 'private.tpl'), "the stranger's own");
    try {
      expect(await parent.failure(sync(stranger.key, 2))).toBe('E_PERMISSION_DENIED@1');
      expect(await parent.failure(sync(parent.key, 2, stranger.key))).toBe('E_PERMISSION_DENIED@1');
      expect(existsSync(path.join(parent.dir, 'templates', 'private.tpl'))).toBe(false);
      expect(await runs(parent)).toEqual([]);
    } finally {
      await parent.site.db.run('DELETE FROM child_sites WHERE tenant = ? AND site_key = ?', [parent.key, stranger.key]);
      rmSync(path.join(stranger.dir, 'templates', 'private.tpl'));
    }
  });

  it("a design sync that fails changes nothing: a group the target's contents use, a link in the source", async () => {
    const before = {
      json: file(parent, 'site.json'),
      news: file(parent, 'functions/news.tpl'),
      group: await groupName(parent, 2),
      tags: await tagCount(parent),
    };
    // The child drops content group 2, which the parent's contents 27 and 28 still belong to.
    await child.site.db.run('DELETE FROM topics WHERE tenant = ? AND group_id = 2', [child.key]);
    await child.site.db.run('DELETE FROM topics_ext_columns WHERE tenant = ? AND group_id = 2', [child.key]);
    await child.site.db.run('DELETE FROM ext_json_schemas WHERE tenant = ? AND group_id = 2', [child.key]);
    await child.site.db.run('DELETE FROM topics_categories WHERE tenant = ? AND group_id = 2', [child.key]);
    await child.site.db.run('DELETE FROM topics_groups WHERE tenant = ? AND id = 2', [child.key]);
    expect(await parent.failure(sync(child.key, 1))).toBe('E_HOST_FAILED@1');
    symlinkSync('/etc', path.join(child.dir, 'templates', 'escape'));
    try {
      expect(await parent.failure(sync(child.key, 2))).toBe('E_PERMISSION_DENIED@1');
    } finally {
      unlinkSync(path.join(child.dir, 'templates', 'escape'));
    }
    expect(file(parent, 'site.json')).toBe(before.json);
    expect(file(parent, 'functions/news.tpl')).toBe(before.news);
    expect(existsSync(path.join(parent.dir, 'templates', 'child-only.tpl'))).toBe(false);
    expect(await groupName(parent, 1)).toEqual({ ja: 'ニュース', en: 'News' });
    expect(await groupName(parent, 2)).toEqual(before.group);
    expect(await tagCount(parent)).toBe(before.tags);
    expect(readdirSync(path.join(parent.dir, 'data')).filter((n) => n.startsWith('sync-'))).toEqual([]);
    const history = await runs(parent);
    expect(history.map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(history[1].error).toMatch(/link/);
    // Failed runs do not start the six hours: a fixed child syncs at once.
    await child.site.db.run('INSERT INTO topics_groups (tenant, id, names) VALUES (?, 2, \'{"ja":"ブログ"}\')', [
      child.key,
    ]);
  });

  it('type 4 copies the app design without the tags, and not the contents', async () => {
    const tagsBefore = await tagCount(parent);
    expect(await parent.render(sync(child.key, 4))).toBe('ok');
    expect(file(parent, 'templates/child-only.tpl')).toBe('child template');
    expect(existsSync(path.join(parent.dir, 'templates', 'parent-only.tpl'))).toBe(false);
    expect(file(parent, 'functions/news.tpl')).toBe('{return value="child news"}');
    const json = JSON.parse(file(parent, 'site.json')) as {
      site_key: string;
      endpoints: { path: string }[];
      database: unknown;
    };
    expect(json.site_key).toBe(parent.key);
    expect(json.endpoints.map((e) => e.path)).toEqual(['news', 'me', 'extra']);
    expect(await groupName(parent, 1)).toEqual({ ja: '子のニュース', en: 'Child news' });
    expect(await subject(parent, 1)).not.toBe('子の記事');
    expect(await tagCount(parent)).toBe(tagsBefore);
    expect((await runs(parent)).map((r) => [r.status, r.sync_type, r.from_site])).toEqual([
      ['failed', 1, child.key],
      ['failed', 2, child.key],
      ['done', 4, child.key],
    ]);
  });

  it("refuses another sync into the same site within 6 hours of the last, against the render's clock", async () => {
    expect(await parent.failure(sync(child.key, 1), FIXED_NOW + 6 * HOUR - 1)).toBe('E_RATE_LIMIT@1');
    // Into another site the interval is its own: the parent pushes to its child.
    writeFileSync(path.join(parent.dir, 'templates', 'pushed.tpl'), 'from the parent');
    expect(await parent.render(sync(parent.key, 1, child.key), FIXED_NOW + HOUR)).toBe('ok');
    expect(file(child, 'templates/pushed.tpl')).toBe('from the parent');
    expect(await parent.render(sync(child.key, 1), FIXED_NOW + 6 * HOUR + 1)).toBe('ok');
  });

  it('type 1 copies the tag definitions; type 2 the contents too, never members', async () => {
    expect(await tagCount(parent)).toBe(await tagCount(child));
    await child.site.db.run("UPDATE members SET nickname = 'child member' WHERE tenant = ? AND member_id = 2", [
      child.key,
    ]);
    await child.site.db.run("UPDATE topic_texts SET subject = '子の記事' WHERE tenant = ? AND topic_id = 1", [
      child.key,
    ]);
    expect(await child.render(sync(child.key, 2, parent.key), FIXED_NOW + 13 * HOUR)).toBe('ok');
    expect(await subject(parent, 1)).toBe('子の記事');
    const topics = async (b: HostSiteBench) =>
      Number((await b.one<{ n: number }>('SELECT COUNT(*) AS n FROM topics WHERE tenant = ?'))!.n);
    expect(await topics(parent)).toBe(await topics(child));
    expect(
      (await parent.one<{ nickname: string }>('SELECT nickname FROM members WHERE tenant = ? AND member_id = 2'))!
        .nickname,
    ).toBe('はなこ');
  });
});
