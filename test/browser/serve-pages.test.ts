/**
 * The pages of `smartcage serve` in Chromium: the paste box (a pasted schema gets a demo page
 * with a validator precompiled on the server, under the strict CSP), the pages' own text in
 * Japanese, and the form-refused notice said once.
 */
import { expect, it } from 'vitest';
import { demoText } from '../../src/forms-ui/demo-text.js';
import { describeBrowser, useHarness, watchCsp } from './support.js';

const schema = {
  type: 'object',
  title: 'Pasted contact',
  required: ['email'],
  properties: {
    email: { type: 'string', title: 'Email', pattern: '^[^@]+@[^@]+$' },
    age: { type: 'integer', title: 'Age', minimum: 0 },
  },
};

describeBrowser('smartcage serve pages', () => {
  const h = useHarness();

  it('the paste box compiles a pasted schema on the server and shows its form, validated in the page under the CSP', async () => {
    const page = await h.newPage();
    const violations = await watchCsp(page);
    await page.goto(`${h.server.url}/`);
    await page.getByRole('link', { name: 'Paste a schema' }).click();
    await page.getByLabel('JSON schema').fill(JSON.stringify(schema, null, 2));
    await page.getByRole('button', { name: 'Show the form' }).click();
    await page.waitForURL(/\/demo\/paste-[0-9a-f]{12}$/);
    await page.waitForSelector('json-field-form .jf-field');
    expect(await page.locator('h1').textContent()).toBe('Pasted contact');
    expect(
      await page
        .locator('json-field-form')
        .evaluate((e) => (e as unknown as { validatorSource: string }).validatorSource),
    ).toBe('precompiled');
    await page.getByLabel('Email').fill('not an email');
    await page.getByLabel('Email').blur();
    expect(await page.locator('[data-pointer="/email"] .jf-error').textContent()).not.toBe('');
    expect(await violations()).toEqual([]);
    // the same schema pasted again is the same page
    const again = await fetch(`${h.server.url}/paste`, {
      method: 'POST',
      body: new URLSearchParams({ schema: JSON.stringify(schema) }),
      redirect: 'manual',
    });
    expect(again.status).toBe(303);
    expect(new URL(page.url()).pathname).toBe(again.headers.get('location'));
  });

  it('a refused or non-JSON paste shows the box again with the problems and the text kept', async () => {
    const page = await h.newPage();
    await page.goto(`${h.server.url}/paste`);
    const bad = '{"type": "object", "properties": {"a": {"type": "string", "maxLenght": 3}}}';
    await page.getByLabel('JSON schema').fill(bad);
    await page.getByRole('button', { name: 'Show the form' }).click();
    await page.waitForSelector('#paste-problems');
    const problems = (await page.getByRole('alert').textContent()) ?? '';
    expect(problems).toContain('The schema was refused:');
    expect(problems).toContain('/properties/a/maxLenght: Unknown keyword "maxLenght". Did you mean "maxLength"?');
    expect(await page.getByLabel('JSON schema').inputValue()).toBe(bad);
    await page.getByLabel('JSON schema').fill('{"type": "object",}');
    await page.getByRole('button', { name: 'Show the form' }).click();
    await page.waitForSelector('#paste-problems');
    expect(await page.getByRole('alert').textContent()).toMatch(/^The text is not JSON: /);
    const big = await fetch(`${h.server.url}/paste`, {
      method: 'POST',
      body: new URLSearchParams({ schema: ' '.repeat(300 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect(await big.text()).toContain(demoText('en').pasteTooLarge(256));
  });

  it('the pages are in Japanese with ?lang=ja: headings, the option, the buttons, the paste box', async () => {
    const ja = demoText('ja');
    const page = await h.newPage();
    await page.goto(`${h.server.url}/demo/article?lang=ja`);
    await page.waitForSelector('json-field-form .jf-field');
    expect(await page.locator('html').getAttribute('lang')).toBe('ja');
    expect(await page.getByRole('checkbox', { name: ja.buildUi }).isChecked()).toBe(true);
    expect(await page.getByRole('heading', { name: ja.submitted }).count()).toBe(1);
    expect(await page.getByRole('link', { name: ja.allSamples }).getAttribute('href')).toBe('/?lang=ja');
    expect(await page.getByRole('button', { name: 'JSONプレビュー' }).count()).toBe(1);
    await page.getByRole('button', { name: ja.save }).click();
    await page.getByRole('link', { name: ja.allSamples }).click();
    expect(await page.locator('h1').textContent()).toBe(ja.samplesHeading);
    await page.getByRole('link', { name: ja.pasteLink }).click();
    expect(await page.locator('h1').textContent()).toBe(ja.pasteHeading);
    await page
      .getByLabel(ja.pasteLabel)
      .fill(JSON.stringify({ type: 'object', properties: { n: { type: 'integer' } } }));
    await page.getByRole('button', { name: ja.pasteButton }).click();
    await page.waitForURL(/\/demo\/paste-[0-9a-f]{12}\?lang=ja$/);
    expect(await page.locator('h1').textContent()).toBe(ja.pastedTitle);
    // and back: the English page has none of the Japanese words
    await page.getByRole('link', { name: 'English' }).click();
    expect(await page.locator('main').textContent()).not.toMatch(/[\u3040-\u30ff]/);
  });

  it.each(['en', 'ja'] as const)('the too-deep notice says once that the form cannot be built (%s)', async (lang) => {
    const page = await h.newPage();
    await page.goto(`${h.server.url}/demo/too-deep${lang === 'ja' ? '?lang=ja' : ''}`);
    await page.waitForSelector('json-field-form .jf-json-editor');
    const notices = await page.locator('json-field-form .jf-notice').allTextContents();
    expect(notices).toHaveLength(1);
    const once = lang === 'ja' ? /生成できません|作成できません/g : /cannot be built/g;
    expect(notices[0]!.match(once)).toHaveLength(1);
    expect(notices[0]!.match(lang === 'ja' ? /JSONエディタ|JSONとして/g : /JSON editor|as JSON/g)).toHaveLength(1);
  });
});
