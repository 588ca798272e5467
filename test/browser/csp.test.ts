/**
 * Decision docs/decisions.md D45: `smartcage serve` sends a Content-Security-Policy
 * without 'unsafe-eval'; every demo page works under it in Chromium with the validator that
 * /validators/NAME.js precompiled on the server, with no CSP violation; a form without a
 * precompiled validator still edits its value and says the server checks it.
 */
import { expect, it } from 'vitest';
import { PAGE_CSP as CSP } from '../../src/http/csp.js';
import { samples } from '../../src/forms/samples/index.js';
import { describeBrowser, mountForm, useHarness, storedValue, watchCsp } from './support.js';

describeBrowser('forms under the strict Content-Security-Policy', () => {
  const h = useHarness();

  it('sends the CSP without unsafe-eval on every page, and serves the precompiled validators', async () => {
    expect(CSP).toContain("script-src 'self';");
    expect(CSP).not.toContain('unsafe-eval');
    expect(CSP).not.toMatch(/script-src[^;]*unsafe-inline/);
    for (const path of ['/', ...Object.keys(samples).map((n) => `/demo/${n}`)]) {
      const r = await fetch(h.server.url + path);
      expect(r.headers.get('content-security-policy'), path).toBe(CSP);
      const html = await r.text();
      expect(html, path).not.toMatch(/<script(?![^>]*\bsrc=)/); // no inline script
    }
    const v = await fetch(`${h.server.url}/validators/article.js`);
    expect(v.headers.get('content-type')).toMatch(/^text\/javascript/);
    const code = await v.text();
    expect(code).toContain('SmartcageValidators');
    expect(code).not.toMatch(/\bnew Function\b|\beval\(/);
    expect((await fetch(`${h.server.url}/validators/nope.js`)).status).toBe(404);
    expect((await fetch(`${h.server.url}/validators/__proto__.js`)).status).toBe(404);
  });

  it.each(Object.keys(samples))('demo page %s works under the CSP with its precompiled validator', async (name) => {
    const page = await h.newPage();
    const violations = await watchCsp(page);
    await page.goto(`${h.server.url}/demo/${name}`);
    await page.waitForSelector('json-field-form .jf-field, json-field-form fieldset.jf-cards');
    expect(
      await page
        .locator('json-field-form')
        .evaluate((e) => (e as unknown as { validatorSource: string }).validatorSource),
    ).toBe('precompiled');
    // validation runs in the page: submitting the initial value reports what the server reports
    await page.click('#save');
    const shown = await page
      .locator('json-field-form')
      .evaluate((e) =>
        (e as unknown as { errors: Array<{ path: string; keyword: string }> }).errors.map(
          (x) => `${x.path} ${x.keyword}`,
        ),
      );
    const server = (await (
      await fetch(`${h.server.url}/api/validate`, {
        method: 'POST',
        body: JSON.stringify({ schema: name, value: await storedValue(page) }),
      })
    ).json()) as { errors: Array<{ path: string; keyword: string }> };
    expect(shown).toEqual(server.errors.map((x) => `${x.path} ${x.keyword}`));
    expect(await violations()).toEqual([]);
    expect(page.uncaught).toEqual([]);
  });

  it('shows field errors live and posts a valid value through the demo page', async () => {
    const page = await h.newPage();
    const violations = await watchCsp(page);
    await page.goto(`${h.server.url}/demo/article`);
    await page.waitForSelector('json-field-form .jf-field');
    const headline = page.getByLabel('Headline');
    await headline.fill('x');
    await headline.fill('');
    await headline.blur();
    expect(await headline.getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Build UI from JSON schema').uncheck();
    const editor = page.locator('json-field-form textarea.jf-json-editor');
    await editor.fill(
      JSON.stringify({
        headline: 'Under CSP',
        status: 'draft',
        language: 'ja',
        publishedOn: '2024-05-01',
        featured: false,
        slug: 'under-csp',
        keywords: ['a'],
      }),
    );
    await editor.blur();
    expect(await page.locator('json-field-form .jf-error').textContent()).toBe('');
    await page.click('#save');
    await expect.poll(() => page.locator('#server-result').textContent()).toBe('server: valid');
    expect(JSON.parse((await page.locator('#submitted').textContent())!)).toMatchObject({ headline: 'Under CSP' });
    expect(await violations()).toEqual([]);
  });

  it('without a precompiled validator the form still edits the value and says the server checks it', async () => {
    const page = await h.newPage();
    const violations = await watchCsp(page);
    const schema = { type: 'object', properties: { name: { type: 'string', title: 'Name', minLength: 1 } } };
    await mountForm(page, h.server.url, schema, {}, { precompiled: false });
    const form = page.locator('json-field-form');
    expect(await form.evaluate((e) => (e as unknown as { validatorSource: string }).validatorSource)).toBe(
      'unavailable',
    );
    expect(await form.locator('.jf-notice').textContent()).toMatch(/checked when saved/);
    await page.getByLabel('Name').fill('Taro');
    expect(await storedValue(page)).toEqual({ name: 'Taro' });
    // the CSP refused the compile (reported), and nothing broke
    expect((await violations()).some((v) => /eval/i.test(v))).toBe(true);
    expect(page.uncaught).toEqual([]);
  });
});
