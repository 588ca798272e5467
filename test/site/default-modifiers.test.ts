/** site.json `default_modifiers`: opt-in, checked, and handed to the site's engines (EngineOptions.defaultModifiers). */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseSiteConfig, SiteConfigError } from '../../src/site/config.js';
import { initSite } from '../../src/site/init.js';
import { openSite } from '../../src/site/open-site.js';
import { SiteEngines } from '../../src/site/engines.js';

const base = { site_key: 'a', timezone: 'Asia/Tokyo', lang: 'ja' };
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('site.json default_modifiers', () => {
  it('is absent unless set, and a list of modifier strings when set', () => {
    expect(parseSiteConfig(base, 'site.json').default_modifiers).toBeUndefined();
    expect(parseSiteConfig({ ...base, default_modifiers: ['escape:"html"'] }, 'site.json').default_modifiers).toEqual([
      'escape:"html"',
    ]);
    expect(() => parseSiteConfig({ ...base, default_modifiers: 'escape' }, 'site.json')).toThrow(SiteConfigError);
    expect(() => parseSiteConfig({ ...base, default_modifiers: [''] }, 'site.json')).toThrow(
      'site.json: /default_modifiers/0: must be a modifier, not blank',
    );
  });

  it("reaches the site's engines", async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'smartcage-defmod-')), 'site');
    made.push(path.dirname(dir));
    await initSite(dir);
    const file = path.join(dir, 'site.json');
    writeFileSync(
      file,
      JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), default_modifiers: ['escape:"html"'] }),
    );
    const site = await openSite(dir);
    try {
      expect(site.engineOptions().defaultModifiers).toEqual(['escape:"html"']);
    } finally {
      await site.close();
    }
  });

  it("stays per site on engines shared by several sites (serve --sites): code compiled with one site's defaults never serves the other", async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'smartcage-defmod-shared-'));
    made.push(root);
    const engines = new SiteEngines();
    const escaped = path.join(root, 'escaped');
    const plain = path.join(root, 'plain');
    await initSite(escaped);
    await initSite(plain);
    const file = path.join(escaped, 'site.json');
    writeFileSync(
      file,
      JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), default_modifiers: ['escape:"html"'] }),
    );
    const a = await openSite(escaped, { engines });
    const b = await openSite(plain, { engines });
    try {
      const page = '{$x}|{$x|smarty:nodefaults}';
      const render = (site: typeof a) =>
        engines
          .at(0)
          .render(page, { name: 'page.tpl', vars: { x: '<b>' }, identity: site.identity() })
          .then((r) => r.output);
      expect(await render(a)).toBe('&lt;b&gt;|<b>');
      expect(await render(b)).toBe('<b>|<b>');
      expect(await render(a)).toBe('&lt;b&gt;|<b>');
    } finally {
      await a.close();
      await b.close();
      await engines.close();
    }
  });
});
