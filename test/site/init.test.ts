import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { initSite, SiteExistsError } from '../../src/site/init.js';
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
    for (const f of ['functions/news.tpl', 'data/site.sqlite', 'files/user', 'templates']) expect(existsSync(path.join(dir, f)), f).toBe(true);
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

describe('site.json is read strictly', () => {
  const base = { site_key: 'a', timezone: 'Asia/Tokyo', lang: 'ja' };
  it.each([
    [{ ...base, sitekey: 'x' }, 'unknown key "sitekey"'],
    [{ timezone: 'Asia/Tokyo', lang: 'ja' }, '"site_key" is required'],
    [{ ...base, site_key: '../x' }, '"site_key" has a wrong value'],
    [{ ...base, database: 'mysql://x' }, '"database" has a wrong value'],
    [{ ...base, endpoints: [{ path: 'a/b', method: 'GET', function: 'f', api_id: 1 }] }, '"endpoints" has a wrong value'],
    [{ ...base, apis: [{ api_id: 1, security: 'open' }] }, '"apis" has a wrong value'],
    [{ ...base, apis: [{ api_id: 1, security: 'none' }, { api_id: 1, security: 'static' }] }, '"apis" has a wrong value'],
  ])('%j: %s', (json, message) => {
    expect(() => parseSiteConfig(json, 'site.json')).toThrow(SiteConfigError);
    expect(() => parseSiteConfig(json, 'site.json')).toThrow(message);
  });
  it('every API an endpoint names has a security: `none` unless listed', () => {
    const config = parseSiteConfig({ ...base, endpoints: [{ path: 'a', method: 'GET', function: 'f', api_id: 4 }, { path: 'b', method: 'GET', function: 'f', api_id: 5 }], apis: [{ api_id: 5, security: 'cookie' }] }, 'site.json');
    expect(config.apis).toEqual([{ api_id: 5, security: 'cookie' }, { api_id: 4, security: 'none' }]);
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
      expect(await site.host.members!.isSuperUser(site.tenant, 1)).toBe(true);
      await expect(site.host.members!.isSuperUser('another', 1)).rejects.toThrow(/asked for tenant another/);
    } finally {
      await site.done();
    }
  });
});
