/**
 * The author's loop in headless Chromium (`smartcage serve --site`): a JSON field edited in the
 * form editor shows in the preview of a templates/ page, which reloads by itself (the server's
 * change event), and in the site's API; and the playground renders a pasted template.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startSiteServer } from '../../src/site/app/app.js';
import type { ServeServer } from '../../src/site/server/listen.js';
import { BACKENDS } from '../site/support/backends.js';
import { siteWith, type TestSite } from '../site/support/site-with.js';
import { buildBundle, describeBrowser, launchBrowser } from './support.js';

const VENUE_PAGE = '{assign_topics_detail topics_id=1 var=t}<p id="venue">{$t.venue.name}</p>';

describeBrowser('the preview and the playground of serve --site', () => {
  let site: TestSite;
  let server: ServeServer;
  let browser: Browser;
  beforeAll(async () => {
    buildBundle();
    site = await siteWith(BACKENDS[0]!, { files: { 'templates/venue.tpl': VENUE_PAGE } });
    server = await startSiteServer({ port: 0, sites: [site], mode: 'single' });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.done();
  });

  it('a value saved in the form editor shows in the preview (reloaded by itself) and in the API', async () => {
    const uncaught: string[] = [];
    const preview = await browser.newPage();
    preview.on('pageerror', (e) => uncaught.push(e.message));
    await preview.goto(`${server.url}/preview/venue.tpl`);
    const shown = preview.frameLocator('#preview-frame').locator('#venue');
    await expect.poll(() => shown.textContent()).toBe('Shibuya Hall');
    await expect.poll(() => preview.locator('#preview-status').textContent()).toBe('Watching the site for changes.');

    const editor = await browser.newPage();
    editor.on('pageerror', (e) => uncaught.push(e.message));
    await editor.goto(`${server.url}/ext/1/venue/1`);
    await expect.poll(() => editor.getByLabel('Name').inputValue()).toBe('Shibuya Hall');
    await editor.getByLabel('Name').fill('Shibuya Hall B');
    await Promise.all([editor.waitForURL(/\?saved=1$/), editor.getByRole('button', { name: 'Save' }).click()]);

    // No reload by hand: the preview's frame follows the save.
    await expect.poll(() => shown.textContent(), { timeout: 15_000 }).toBe('Shibuya Hall B');
    await expect.poll(() => preview.locator('#preview-status').textContent()).toMatch(/^Reloaded at /);

    const api = await editor.evaluate(async () => (await fetch('/rcms-api/1/news?cnt=100')).json());
    const item = (api as { list: { topics_id: number; venue?: { name?: string } }[] }).list.find(
      (t) => t.topics_id === 1,
    );
    expect(item?.venue?.name).toBe('Shibuya Hall B');
    expect(uncaught).toEqual([]);
    await preview.close();
    await editor.close();
  });

  it('the playground renders a pasted template: output, warnings and code', async () => {
    const page = await browser.newPage();
    const uncaught: string[] = [];
    page.on('pageerror', (e) => uncaught.push(e.message));
    await page.goto(`${server.url}/playground`);
    await page.locator('#pg-template').fill('<b id="out">{$x|upper}</b>{$x|escape:"htmll"}');
    await page.locator('#pg-vars').fill('{"x": "tea"}');
    await page.getByRole('button', { name: 'Render' }).click();
    // The first render starts the playground's sandbox worker.
    await expect.poll(() => page.locator('#pg-status').textContent(), { timeout: 20_000 }).toBe('Rendered.');
    await expect.poll(() => page.frameLocator('#pg-output').locator('#out').textContent()).toBe('TEA');
    expect(await page.locator('#pg-warnings').textContent()).toContain('W_UNKNOWN_ARGUMENT');
    expect(await page.locator('#pg-code').textContent()).toContain('smartcage.define("playground.tpl"');
    // Still on the page: the script rendered it, the form did not post.
    expect(page.url()).toBe(`${server.url}/playground`);
    expect(uncaught).toEqual([]);
    await page.close();
  });
});
