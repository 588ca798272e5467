/**
 * A Japanese page of the form: every word the UI writes itself is Japanese (only the schema's
 * own titles are the author's), and dates (src/forms-ui/README.md "Dates on a Japanese page"):
 * Chromium draws
 * `<input type=date>` in the browser's locale whatever the page's `lang`, so in an English
 * browser a Japanese page showed mm/dd/yyyy. There the form edits dates as text in the
 * Japanese order; an English page keeps the native controls.
 */
import { expect, it } from 'vitest';
import { ALL_KINDS } from './all-kinds.js';
import { describeBrowser, mountForm, storedValue, useHarness } from './support.js';

/** ALL_KINDS with the author's words (titles, help, option names) in Japanese. */
function japaneseAuthor(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(japaneseAuthor);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [
      k,
      (k === 'title' || k === 'description') && typeof x === 'string'
        ? '作者の言葉'
        : k === 'enumNames'
          ? (x as unknown[]).map((_, i) => `選択肢${i + 1}`)
          : japaneseAuthor(x),
    ]),
  );
}

/** Words in Latin letters that are not the UI's words in any language: formats and names. */
const NOT_WORDS = /JSON|YYYY\/MM\/DD|HH:mm:ss|\/files\/user\/…/g;

const SCHEMA = {
  type: 'object',
  properties: {
    day: { type: 'string', title: '開催日', format: 'date' },
    at: { type: 'string', title: '公開日時', format: 'date-time' },
  },
};
const VALUE = { day: '2024-05-01', at: '2024-05-01T09:30:00+09:00' };

describeBrowser('a Japanese page of the form', () => {
  const h = useHarness();

  it('lang=ja: no word the UI writes itself is English (marks, buttons, names, errors, dialogs)', async () => {
    const page = await h.newPage();
    await mountForm(page, h.server.url, japaneseAuthor(ALL_KINDS), { lang: 'ja', 'time-zone': 'Asia/Tokyo' });
    await page.fill('json-field-form input.jf-number', 'x'); // a coercion message
    await page.click('#save'); // every validation message and the summary
    await page.click('json-field-form .jf-preview-button'); // the preview dialog
    const written = await page.evaluate(() => {
      const out: string[] = [];
      const form = document.querySelector('json-field-form')!;
      const walk = document.createTreeWalker(form, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        if (n instanceof Element) {
          for (const a of ['aria-label', 'placeholder', 'title', 'alt'])
            if (n.hasAttribute(a)) out.push(n.getAttribute(a)!);
        } else if (!n.parentElement!.closest('style, textarea, pre')) out.push(n.textContent!);
      }
      return out;
    });
    expect(written).toEqual(
      expect.arrayContaining(['JSONプレビュー', '閉じる', 'ファイルを選択', '項目を追加', ' (必須)']),
    );
    const english = written.filter((t) => /[A-Za-z]{2,}/.test(t.replace(NOT_WORDS, '')));
    expect(english).toEqual([]);
  });

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
