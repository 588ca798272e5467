/**
 * The forms UI's design system (src/forms-ui/style.ts) as a reviewer checks it, in English and
 * Japanese: controls drawn from the tokens (not the browser's defaults), a visible focus ring, an
 * error state that differs from the normal one in colour, no horizontal scrolling on a phone
 * (375 px) or a desktop (1280 px), and the serve pages around it in the same tokens. The
 * screenshots are test-artifacts/screenshots/design-*.png.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { TOKENS } from '../../src/forms-ui/style.js';
import { ALL_KINDS, ALL_KINDS_JA } from './all-kinds.js';
import { describeBrowser, mountForm, SCREENSHOTS, useHarness } from './support.js';

/** A token's colour as getComputedStyle writes it (`#0a5cad` -> `rgb(10, 92, 173)`). */
function rgb(token: keyof typeof TOKENS): string {
  const hex = TOKENS[token].slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

const VALUE = { title: '', count: 12, rows: [{ name: 'A' }, { name: '' }] };

async function style(page: Page, selector: string, props: string[]): Promise<Record<string, string>> {
  return page
    .locator(selector)
    .first()
    .evaluate((e, names) => {
      const cs = getComputedStyle(e);
      return Object.fromEntries(names.map((n) => [n, cs.getPropertyValue(n)]));
    }, props);
}

/** How far the page scrolls sideways (0: it fits). */
const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describeBrowser('the forms UI design system', () => {
  const h = useHarness();

  for (const lang of ['en', 'ja'] as const) {
    it(`${lang}: controls, buttons, focus and errors come from the tokens; screenshots`, async () => {
      const page = await h.newPage();
      await page.setViewportSize({ width: 1280, height: 900 });
      await mountForm(page, h.server.url, lang === 'ja' ? ALL_KINDS_JA : ALL_KINDS, {
        lang,
        'time-zone': 'Asia/Tokyo',
        value: JSON.stringify(VALUE),
      });

      // Controls are not the browser's: border, radius, padding and font from the tokens.
      const input = await style(page, '[data-pointer="/title"] input', [
        'border-top-color',
        'border-top-width',
        'border-top-left-radius',
        'padding-left',
        'font-family',
      ]);
      expect(input).toEqual({
        'border-top-color': rgb('color-border'),
        'border-top-width': '1px',
        'border-top-left-radius': TOKENS.radius,
        'padding-left': TOKENS['space-3'],
        'font-family': TOKENS.font,
      });
      // The textarea that carries the value stays hidden under the control rules.
      expect(await style(page, 'json-field-form > textarea.jf-value', ['display'])).toEqual({ display: 'none' });
      for (const sel of ['select', 'textarea', '.jf-richtext'])
        expect(await style(page, `json-field-form ${sel}`, ['border-top-left-radius']), sel).toEqual({
          'border-top-left-radius': TOKENS.radius,
        });
      expect(
        await style(page, 'json-field-form .jf-preview-button', [
          'background-color',
          'border-top-color',
          'border-top-left-radius',
        ]),
      ).toEqual({
        'background-color': rgb('color-surface'),
        'border-top-color': rgb('color-border'),
        'border-top-left-radius': TOKENS.radius,
      });

      // The error state: after a submit, the invalid control and its message are in the danger colour.
      const valid = await style(page, '[data-pointer="/count"] input', ['border-top-color', 'background-color']);
      await page.click('#save');
      const invalidSel = '[data-pointer="/title"] input[aria-invalid="true"]';
      const invalid = await style(page, invalidSel, ['border-top-color', 'background-color']);
      expect(invalid).toEqual({
        'border-top-color': rgb('color-danger'),
        'background-color': rgb('color-danger-surface'),
      });
      expect(invalid['border-top-color']).not.toBe(valid['border-top-color']);
      expect(invalid['background-color']).not.toBe(valid['background-color']);
      const message = await style(page, '[data-pointer="/title"] .jf-error-line', ['color']);
      expect(message.color).toBe(rgb('color-danger'));
      expect(message.color).not.toBe((await style(page, 'json-field-form label', ['color'])).color);
      await page.mouse.click(5, 5); // the submit focused the first invalid control; the shot shows the errors alone
      await page.screenshot({ path: join(SCREENSHOTS, `design-${lang}-1280-errors.png`), fullPage: true });

      // Focus: a text control and a button reached with the keyboard get the ring.
      await page.locator('[data-pointer="/rows/1/name"] input').focus();
      await page.keyboard.press('Tab');
      const button = await page.evaluate(() => {
        const a = document.activeElement!;
        const cs = getComputedStyle(a);
        return {
          tag: a.tagName,
          visible: a.matches(':focus-visible'),
          style: cs.outlineStyle,
          width: cs.outlineWidth,
          color: cs.outlineColor,
        };
      });
      expect(button).toEqual({
        tag: 'BUTTON',
        visible: true,
        style: 'solid',
        width: TOKENS['focus-width'],
        color: rgb('color-focus'),
      });
      await page.locator('[data-pointer="/count"] input').focus();
      const ring = await style(page, '[data-pointer="/count"] input', ['outline-style', 'outline-width']);
      expect(ring['outline-style']).toBe('solid');
      expect(parseFloat(ring['outline-width']!)).toBeGreaterThan(0);
      await page.screenshot({ path: join(SCREENSHOTS, `design-${lang}-1280-focus.png`), fullPage: true });
      expect(await sideways(page)).toBe(0);

      await page.setViewportSize({ width: 375, height: 800 });
      expect(await sideways(page)).toBe(0);
      await page.screenshot({ path: join(SCREENSHOTS, `design-${lang}-375.png`), fullPage: true });
    });

    it(`${lang}: the demo pages fit 375 px and 1280 px without scrolling sideways`, async () => {
      const page = await h.newPage();
      for (const name of ['article', 'event', 'rich-media', 'product-specs', 'settings-json', 'too-deep']) {
        for (const width of [375, 1280]) {
          await page.setViewportSize({ width, height: 800 });
          await page.goto(`${h.server.url}/demo/${name}${lang === 'ja' ? '?lang=ja' : ''}`);
          await page.waitForSelector('json-field-form .jf-field, json-field-form fieldset.jf-cards');
          await page.click('#save');
          expect(await sideways(page), `${name} at ${width} px`).toBe(0);
          // Inside the form the form's rules win over the page's (PAGE_CSS is in :where()).
          if ((await page.locator('json-field-form input[type=text]').count()) > 0)
            expect(await style(page, 'json-field-form input[type=text]', ['padding-left']), name).toEqual({
              'padding-left': TOKENS['space-3'],
            });
        }
      }
      // The page's own submit button is the primary action, in the same tokens (PAGE_CSS).
      expect(await style(page, '#save', ['background-color', 'color', 'border-top-left-radius'])).toEqual({
        'background-color': rgb('color-accent'),
        color: rgb('color-accent-text'),
        'border-top-left-radius': TOKENS.radius,
      });
      await page.screenshot({ path: join(SCREENSHOTS, `design-${lang}-demo-1280.png`), fullPage: true });
    });
  }

  it('the same rules in both languages: only the line height differs (1.7 for Japanese)', async () => {
    const page = await h.newPage();
    const props = ['font-family', 'font-size', 'padding-left', 'border-top-left-radius', 'line-height'];
    await mountForm(page, h.server.url, ALL_KINDS, { lang: 'en' });
    const en = await style(page, '[data-pointer="/title"] input', props);
    await mountForm(page, h.server.url, ALL_KINDS_JA, { lang: 'ja' });
    const ja = await style(page, '[data-pointer="/title"] input', props);
    expect({ ...ja, 'line-height': en['line-height'] }).toEqual(en);
    expect(parseFloat(ja['line-height']!)).toBeCloseTo(14 * 1.7, 1);
  });
});
