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
import { SITE_SCHEMA_URL } from '../../src/site/site-json.generated.js';
import { ajvSiteJsonErrors } from '../support/site-schema.js';

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
    // `$schema` first, so an editor completes the rest; what init writes is valid to ajv too.
    const written = JSON.parse(readFileSync(path.join(dir, 'site.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.entries(written)[0]).toEqual(['$schema', SITE_SCHEMA_URL]);
    expect(ajvSiteJsonErrors(written)).toEqual([]);
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
    [{ ...base, sitekey: 'x' }, 'site.json: unknown key "sitekey" (known: $schema, site_key, timezone, lang, '],
    [{ timezone: 'Asia/Tokyo', lang: 'ja' }, 'site.json: "site_key" is required'],
    [{ ...base, site_key: '../x' }, 'site.json: /site_key: must be a key of a-z, 0-9, _ and - (1 to 63'],
    [{ ...base, database: 'mysql://x' }, 'site.json: /database: must be a postgres:// URL'],
    [{ ...base, database: 5 }, 'site.json: /database: must be a string or null'],
    [
      { ...base, endpoints: [{ path: 'a/b', method: 'GET', function: 'f', api_id: 1 }] },
      'site.json: /endpoints/0/path: must be a key of a-z',
    ],
    [
      { ...base, endpoints: [{ path: 'a', method: 'GET', function: 'f', api_id: 1, verb: 'x' }] },
      'site.json: /endpoints/0: unknown key "verb" (known: path, method, function, api_id, cache)',
    ],
    [
      {
        ...base,
        endpoints: [
          { path: 'a', method: 'GET', function: 'f', api_id: 1 },
          { path: 'b', method: 'PUT', function: 'f', api_id: 1 },
        ],
      },
      'site.json: /endpoints/1/method: must be one of GET, POST',
    ],
    [{ ...base, apis: [{ api_id: 1, security: 'open' }] }, 'site.json: /apis/0/security: must be one of none, cookie'],
    [{ ...base, storage: { type: 's3', region: 'x' } }, 'site.json: /storage: "bucket" is required'],
    [{ ...base, storage: { type: 'ftp' } }, 'site.json: /storage: must be one of: {"type": "local"}; {"type": "s3"'],
    [{ ...base, secrets: { file: '' } }, 'site.json: /secrets/file: must not be empty'],
    [{ ...base, batches: [{ slug: 'a' }, { slug: 'a' }] }, 'site.json: /batches/1/slug: the same as /batches/0/slug'],
    [
      {
        ...base,
        apis: [
          { api_id: 1, security: 'none' },
          { api_id: 1, security: 'static' },
        ],
      },
      'site.json: /apis/1/api_id: the same as /apis/0/api_id',
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
