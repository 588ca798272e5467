/**
 * The form editor of a site's JSON fields (`smartcage serve --sites`) in headless Chromium, with
 * the site served under /sites/<key>/: the precompiled validator, the file picker over that
 * site's own files (`files-base`), a save that the server checks and stores, and a value the
 * browser refuses that never leaves the page; in Japanese, the list and the editor name each
 * content by its title (screenshots site-editor-ja-*.png).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startSiteServer } from '../../src/site/app/app.js';
import type { FormsServer } from '../../src/forms-ui/server/app.js';
import { jsonField, jsonValue } from '../../src/site/json-fields.js';
import { BACKENDS } from '../site/support/backends.js';
import { siteWith, type TestSite } from '../site/support/site-with.js';
import { buildBundle, describeBrowser, launchBrowser, SCREENSHOTS } from './support.js';

describeBrowser('the JSON field editor of a site served under /sites/<key>/', () => {
  let site: TestSite;
  let server: FormsServer;
  let browser: Browser;
  beforeAll(async () => {
    buildBundle();
    site = await siteWith(BACKENDS[0]!);
    mkdirSync(join(site.dir, 'files', 'user', 'maps'), { recursive: true });
    writeFileSync(join(site.dir, 'files', 'user', 'maps', 'hall.png'), 'png');
    server = await startSiteServer({ port: 0, sites: [site], mode: 'multi' });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.done();
  });

  it("edits with the precompiled validator and the site's own files, and saves what the server accepts", async () => {
    const page = await browser.newPage();
    const uncaught: string[] = [];
    page.on('pageerror', (e) => uncaught.push(e.message));
    const base = `${server.url}/sites/${site.tenant}`;
    await page.goto(`${base}/ext/1/venue/1`);
    await page.waitForFunction(
      () =>
        (document.querySelector('json-field-form') as unknown as { validatorSource?: string } | null)
          ?.validatorSource === 'precompiled',
    );
    await expect.poll(() => page.getByLabel('Name').inputValue()).toBe('Shibuya Hall');

    await page.getByRole('button', { name: 'Choose file: Floor map' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose a file' });
    await picker.getByRole('button', { name: 'Open folder maps' }).click();
    await picker.getByRole('button', { name: 'Choose hall.png' }).click();
    await expect.poll(() => picker.count()).toBe(0);
    await expect
      .poll(() => page.locator('a.jf-file-preview').getAttribute('href'))
      .toBe(`/sites/${site.tenant}/files/user/maps/hall.png`);

    await page.getByLabel('Name').fill('Shibuya Hall B');
    await Promise.all([page.waitForURL(/\?saved=1$/), page.getByRole('button', { name: 'Save' }).click()]);
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Saved.');
    const field = (await jsonField(site, 1, 'venue'))!;
    expect(await jsonValue(site, field, 1)).toMatchObject({
      name: 'Shibuya Hall B',
      floorMap: '/files/user/maps/hall.png',
    });

    await page.getByLabel('Name').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBeGreaterThan(0);
    expect(page.url()).toMatch(/\?saved=1$/);
    expect(await jsonValue(site, field, 1)).toMatchObject({ name: 'Shibuya Hall B' });
    expect(uncaught).toEqual([]);
    await page.close();
  });

  it('in Japanese: the list names each content by its title and keeps the language into the editor', async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    const base = `${server.url}/sites/${site.tenant}`;
    await page.goto(`${base}/ext/1/venue/?lang=ja`);
    const first = page.getByRole('link', { name: '新しいウェブサイトを公開しました' });
    expect(await first.getAttribute('href')).toBe(`/sites/${site.tenant}/ext/1/venue/1?lang=ja`);
    await page.screenshot({ path: join(SCREENSHOTS, 'site-editor-ja-list.png'), fullPage: true });
    await first.click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toMatch(/: 新しいウェブサイトを公開しました \(ID 1\)$/);
    await page.getByRole('button', { name: '保存' }).focus();
    await page.screenshot({ path: join(SCREENSHOTS, 'site-editor-ja-editor.png'), fullPage: true });
    await page.close();
  });
});
