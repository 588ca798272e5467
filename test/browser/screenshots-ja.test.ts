/**
 * Japanese screenshots (test-artifacts/screenshots/ja-*.png) of the demo pages with lang=ja,
 * and proof they are not tofu: Chromium reports (CSS.getPlatformFontsForNode) which installed
 * font drew the Japanese label, and it must be a CJK font (.ci/run installs fonts-noto-cjk).
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { message } from '../../src/forms/messages.js';
import { describeBrowser, mountForm, SCREENSHOTS, useHarness } from './support.js';

const JA_SCHEMA = {
  type: 'object',
  title: 'お知らせ',
  properties: {
    title: { type: 'string', title: '記事タイトル', description: '一覧に表示されます。', minLength: 1, maxLength: 40 },
    category: {
      type: 'string',
      title: 'カテゴリ',
      enum: [null, 'news', 'event'],
      enumNames: ['選択してください', 'ニュース', 'イベント'],
    },
    publishedAt: { type: 'string', title: '公開日時', format: 'date-time', nullable: false },
    body: { type: 'string', title: '本文', format: 'html' },
    tags: { type: 'array', title: 'タグ（カンマ区切り）', items: { type: 'string' } },
    links: {
      type: 'array',
      title: '関連リンク',
      minItems: 1,
      items: {
        type: 'object',
        title: 'リンク',
        properties: { label: { type: 'string', title: '表示名', minLength: 1 }, url: { type: 'string', title: 'URL' } },
      },
    },
  },
};

const NO_CJK_FONT =
  'no CJK font drew the Japanese text (tofu in screenshots): install one: apt-get install -y fonts-noto-cjk';

/** The font families Chromium used to draw the text of the first node matching `selector`. */
async function fontsOf(page: Page, selector: string): Promise<Array<{ familyName: string; glyphCount: number }>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  await cdp.detach();
  return fonts;
}

describeBrowser('Japanese screenshots', () => {
  const h = useHarness();

  it.each(['article', 'event', 'rich-media', 'product-specs', 'settings-json', 'too-deep'])(
    'ja-%s.png: Japanese text drawn with a CJK font',
    async (name) => {
      const page = await h.newPage();
      await page.goto(`${h.server.url}/demo/${name}?lang=ja`);
      await page.waitForSelector('json-field-form .jf-field, json-field-form fieldset.jf-cards');
      await page.click('#save'); // the Japanese error messages show too
      const fonts = await fontsOf(page, 'json-field-form .jf-preview-button'); // "JSONプレビュー"
      const cjk = fonts.filter((f) => /CJK|Noto Sans JP|Noto Serif JP|IPA|Takao|VL Gothic/i.test(f.familyName));
      expect(cjk.length, `${NO_CJK_FONT}; fonts used: ${JSON.stringify(fonts)}`).toBeGreaterThan(0);
      await page.screenshot({ path: join(SCREENSHOTS, `ja-${name}.png`), fullPage: true });
    },
  );

  it('ja-labels.png: a form whose schema titles are Japanese, errors shown', async () => {
    const page = await h.newPage();
    await mountForm(page, h.server.url, JA_SCHEMA, { lang: 'ja', 'time-zone': 'Asia/Tokyo' });
    await page.click('#save');
    expect(await page.getByRole('textbox', { name: '記事タイトル (必須)' }).getAttribute('aria-invalid')).toBe('true');
    const fonts = await fontsOf(page, 'json-field-form label');
    expect(
      fonts.some((f) => /CJK|Noto Sans JP|IPA|Takao|VL Gothic/i.test(f.familyName)),
      `${NO_CJK_FONT}; fonts used: ${JSON.stringify(fonts)}`,
    ).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'ja-labels.png'), fullPage: true });
  });

  it('ja-card-alert.png: the minItems alert in Japanese', async () => {
    const page = await h.newPage();
    await page.goto(`${h.server.url}/demo/product-specs?lang=ja`);
    await page.waitForSelector('json-field-form fieldset.jf-card');
    await page.getByRole('button', { name: '項目1を削除' }).click();
    expect(await page.locator('json-field-form [role=alert]').textContent()).toBe(
      message('card.min-items', { limit: 1 }).ja,
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'ja-card-alert.png'), fullPage: true });
  });
});
