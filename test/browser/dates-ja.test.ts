/**
 * Dates on a Japanese page (src/forms-ui/README.md "Dates on a Japanese page"): Chromium draws
 * `<input type=date>` in the browser's locale whatever the page's `lang`, so in an English
 * browser a Japanese page showed mm/dd/yyyy. There the form edits dates as text in the
 * Japanese order; an English page keeps the native controls.
 */
import { expect, it } from 'vitest';
import { describeBrowser, mountForm, storedValue, useHarness } from './support.js';

const SCHEMA = {
  type: 'object',
  properties: {
    day: { type: 'string', title: '開催日', format: 'date' },
    at: { type: 'string', title: '公開日時', format: 'date-time' },
  },
};
const VALUE = { day: '2024-05-01', at: '2024-05-01T09:30:00+09:00' };

describeBrowser('dates on a Japanese page', () => {
  const h = useHarness();

  it('lang=ja: YYYY/MM/DD text, shown and typed, stored as the same JSON', async () => {
    const page = await h.newPage(); // an English browser (en-US), as in the report of issue 37
    expect(await page.evaluate(() => navigator.language)).toBe('en-US');
    await mountForm(page, h.server.url, SCHEMA, {
      lang: 'ja',
      'time-zone': 'Asia/Tokyo',
      value: JSON.stringify(VALUE),
    });
    const day = page.getByRole('textbox', { name: '開催日' });
    const at = page.getByRole('textbox', { name: '公開日時' });
    expect(await day.getAttribute('placeholder')).toBe('YYYY/MM/DD');
    expect(await at.getAttribute('placeholder')).toBe('YYYY/MM/DD HH:mm:ss');
    expect(await day.inputValue()).toBe('2024/05/01');
    expect(await at.inputValue()).toBe('2024/05/01 09:30:00');
    expect(await day.evaluate((e) => e.closest('[lang]')?.getAttribute('lang'))).toBe('ja');

    await day.fill('2024/6/2');
    await at.fill('２０２４／０６／０２　１８：００');
    expect(await storedValue(page)).toEqual({ day: '2024-06-02', at: '2024-06-02T18:00:00+09:00' });

    await day.fill('06/02/2024');
    await day.blur();
    expect(await page.locator('json-field-form .jf-error').first().textContent()).toBe(
      '「06/02/2024」は日付（YYYY/MM/DD）ではありません。',
    );
    expect(await day.getAttribute('aria-invalid')).toBe('true');
    expect(await storedValue(page)).toMatchObject({ day: '2024-06-02' });
  });

  it('an English page keeps the native date controls', async () => {
    const page = await h.newPage();
    await mountForm(page, h.server.url, SCHEMA, {
      lang: 'en',
      'time-zone': 'Asia/Tokyo',
      value: JSON.stringify(VALUE),
    });
    expect(
      await page.locator('json-field-form input').evaluateAll((l) => l.map((e) => (e as HTMLInputElement).type)),
    ).toEqual(['date', 'datetime-local']);
  });
});
