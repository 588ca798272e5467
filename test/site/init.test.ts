import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { initSite, SiteExistsError, SiteInitError } from '../../src/site/init.js';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../src/site/db/database.js';
import { tableWithTenant } from '../../src/site/db/tenant-rows.js';
import { PG_URL } from './support/backends.js';
import { parseSiteConfig, readSiteConfig, SiteConfigError } from '../../src/site/config.js';
import { eachBackend, sampleSite } from './support/backends.js';

const made: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(path.join(tmpdir(), 'smartcage-init-'));
  made.push(d);
  return d;
};
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('site init', () => {
  it('makes a folder a reader can keep in git: settings, functions, templates, files; data and key ignored', async () => {
    const dir = path.join(tmp(), 'My Demo');
    await initSite(dir);
    const config = readSiteConfig(dir);
    expect(config.site_key).toBe('my-demo');
    expect(config.endpoints).toContainEqual({ path: 'news', method: 'GET', function: 'news', api_id: 1 });
    for (const f of ['functions/news.tpl', 'data/site.sqlite', 'files/user', 'templates'])
      expect(existsSync(path.join(dir, f)), f).toBe(true);
    expect(readFileSync(path.join(dir, '.gitignore'), 'utf8')).toContain('data/');
    expect(readFileSync(path.join(dir, 'data', 'site-key')).length).toBe(32);
  });

  it('never overwrites a site', async () => {
    const dir = tmp();
    await initSite(dir, { siteKey: 'first' });
    await expect(initSite(dir, { siteKey: 'second' })).rejects.toThrow(SiteExistsError);
    expect(readSiteConfig(dir).site_key).toBe('first');
  });
});

/** A port nothing listens on (bound, then closed). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

describe('site init leaves nothing half-made', () => {
  it('refuses an unreachable database in one line before writing anything, and can simply run again', async () => {
    const dir = path.join(tmp(), 'shop');
    const url = `postgres://user:hunter2@127.0.0.1:${await closedPort()}/nowhere`;
    const err = await initSite(dir, { database: url }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SiteInitError);
    expect((err as Error).message).toMatch(
      /^the database postgres:\/\/user:\*\*\*@127\.0\.0\.1:\d+\/nowhere cannot be used \(.*\): start it or fix --database; nothing was written$/,
    );
    expect((err as Error).message).not.toContain('hunter2');
    expect(existsSync(dir)).toBe(false);
    await initSite(dir);
    expect(readSiteConfig(dir).site_key).toBe('shop');
  });

  it('removes what it made when the site cannot be opened (a bad key), in a folder that existed', async () => {
    const dir = tmp();
    writeFileSync(path.join(dir, 'keep.txt'), 'mine');
    await expect(initSite(dir, { siteKey: 'Bad Key!' })).rejects.toThrow(SiteConfigError);
    expect(readFileSync(path.join(dir, 'keep.txt'), 'utf8')).toBe('mine');
    expect(readdirSync(dir)).toEqual(['keep.txt']);
  });

  (PG_URL ? it : it.skip)(
    'refuses a site key that already has rows in the shared database, and touches none of them',
    async () => {
      const key = `t${randomBytes(6).toString('hex')}`;
      await initSite(path.join(tmp(), 'first'), { siteKey: key, database: PG_URL });
      const second = path.join(tmp(), 'second');
      await expect(initSite(second, { siteKey: key, database: PG_URL })).rejects.toThrow(
        `the database already holds a site with the key "${key}" (rows in `,
      );
      expect(existsSync(second)).toBe(false);
      const db = await openDatabase({ url: PG_URL, sqlitePath: '' });
      try {
        expect(await tableWithTenant(db, key)).not.toBeNull();
        expect(
          Number((await db.get<{ n: string }>('SELECT COUNT(*) AS n FROM topics WHERE tenant = ?', [key]))!.n),
        ).toBeGreaterThan(20);
      } finally {
        await db.close();
      }
    },
  );
});

describe('site.json is read strictly', () => {
  const base = { site_key: 'a', timezone: 'Asia/Tokyo', lang: 'ja' };
  it.each([
    [{ ...base, sitekey: 'x' }, 'unknown key "sitekey"'],
    [{ timezone: 'Asia/Tokyo', lang: 'ja' }, '"site_key" is required'],
    [{ ...base, site_key: '../x' }, '"site_key" has a wrong value'],
    [{ ...base, database: 'mysql://x' }, '"database" has a wrong value'],
    [
      { ...base, endpoints: [{ path: 'a/b', method: 'GET', function: 'f', api_id: 1 }] },
      '"endpoints" has a wrong value',
    ],
    [{ ...base, apis: [{ api_id: 1, security: 'open' }] }, '"apis" has a wrong value'],
    [
      {
        ...base,
        apis: [
          { api_id: 1, security: 'none' },
          { api_id: 1, security: 'static' },
        ],
      },
      '"apis" has a wrong value',
    ],
  ])('%j: %s', (json, message) => {
    expect(() => parseSiteConfig(json, 'site.json')).toThrow(SiteConfigError);
    expect(() => parseSiteConfig(json, 'site.json')).toThrow(message);
  });
  it('every API an endpoint names has a security: `none` unless listed', () => {
    const config = parseSiteConfig(
      {
        ...base,
        endpoints: [
          { path: 'a', method: 'GET', function: 'f', api_id: 4 },
          { path: 'b', method: 'GET', function: 'f', api_id: 5 },
        ],
        apis: [{ api_id: 5, security: 'cookie' }],
      },
      'site.json',
    );
    expect(config.apis).toEqual([
      { api_id: 5, security: 'cookie' },
      { api_id: 4, security: 'none' },
    ]);
  });
  it('names the file and the fix when there is none', () => {
    expect(() => readSiteConfig(tmp())).toThrow(/site.json: not found .*smartcage site init/);
  });
  it('says which key is wrong in a broken file', () => {
    const dir = tmp();
    writeFileSync(path.join(dir, 'site.json'), '{"site_key": "a",');
    expect(() => readSiteConfig(dir)).toThrow(/not valid JSON/);
  });
});

eachBackend('a sample site', (backend) => {
  it('opens, migrated, with the site key as its tenant', async () => {
    const site = await sampleSite(backend);
    try {
      expect(site.tenant).toBe(site.config.site_key);
      expect(site.identity({ memberId: 1 }).superUser).toBe(true);
      expect(site.identity({ memberId: 2 }).superUser).toBe(false);
      expect(await site.host.members!.isSuperUser(1)).toBe(true);
    } finally {
      await site.done();
    }
  });
});
