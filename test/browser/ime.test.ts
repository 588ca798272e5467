/**
 * Japanese IME composition (jsonschema-forms.md §7.2: "do not re-render or validate a field
 * while isComposing; commit on compositionend"), driven through Chromium's DevTools protocol
 * (`Input.imeSetComposition` for the intermediate states, `Input.insertText` to commit), into
 * a text input and the rich-text editor: the stored JSON gets the committed text exactly once,
 * no intermediate state reaches the value or the error messages, and the control is neither
 * re-rendered nor loses focus during the composition.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { CDPSession, Locator, Page } from 'playwright-core';
import { message } from '../../src/forms/messages.js';
import { describeBrowser, mountForm, SCREENSHOTS, useHarness, storedValue } from './support.js';

const SCHEMA = {
  type: 'object',
  title: 'IME',
  properties: {
    name: { type: 'string', title: '名前', minLength: 1, maxLength: 6, pattern: '^[^a-z]*$' },
    body: { type: 'string', title: '本文', format: 'html' },
  },
};

/** Romaji → kana → conversion states of typing "nihongonobunshou" and converting it. */
const STATES = ['に', 'にほ', 'にほん', 'にほんご', 'にほんごの', 'にほんごのぶんしょう', '日本語の文章'];
const COMMIT = '日本語の文章';
const TOO_LONG = message('validate.maxLength', { limit: 6 }).en;

/** Starts recording what the page shows and stores while composing. */
async function record(page: Page, control: Locator): Promise<void> {
  await control.evaluate((c) => {
    const w = window as unknown as { rec: { values: string[]; errors: string[]; removed: number; control: Element } };
    w.rec = { values: [], errors: [], removed: 0, control: c };
    const form = document.querySelector('json-field-form')!;
    form.addEventListener('value-change', (e) =>
      w.rec.values.push(JSON.stringify((e as CustomEvent<{ value: unknown }>).detail.value)),
    );
    new MutationObserver((list) => {
      for (const m of list) {
        w.rec.removed +=
          m.removedNodes.length &&
          m.target instanceof Element &&
          m.target.closest('.jf-body') &&
          !m.target.closest('.jf-error')
            ? m.removedNodes.length
            : 0;
        const err =
          m.target instanceof Element ? m.target.closest('.jf-error') : m.target.parentElement?.closest('.jf-error');
        if (err && err.textContent) w.rec.errors.push(err.textContent);
      }
    }).observe(form, { subtree: true, childList: true, characterData: true });
  });
}

async function compose(cdp: CDPSession, page: Page, control: Locator): Promise<void> {
  for (const text of STATES) {
    await cdp.send('Input.imeSetComposition', { text, selectionStart: text.length, selectionEnd: text.length });
    // mid-composition: same element, still focused, nothing stored, nothing shown
    const state = await page.evaluate(() => {
      const w = window as unknown as { rec: { values: string[]; errors: string[]; removed: number; control: Element } };
      return {
        focused: document.activeElement === w.rec.control,
        connected: w.rec.control.isConnected,
        values: w.rec.values.length,
        errors: w.rec.errors,
        removed: w.rec.removed,
      };
    });
    expect(state, text).toEqual({ focused: true, connected: true, values: 0, errors: [], removed: 0 });
    expect(await control.evaluate((c) => (c instanceof HTMLInputElement ? c.value : c.textContent))).toContain(text);
  }
  await cdp.send('Input.insertText', { text: COMMIT });
}

describeBrowser('IME composition in <json-field-form>', () => {
  const h = useHarness();

  it('a text input stores the committed text once, validates only the committed text', async () => {
    const page = await h.newPage();
    await mountForm(page, h.server.url, SCHEMA);
    const input = page.getByRole('textbox', { name: '名前 (required)' });
    await input.click();
    await page.keyboard.type('X');
    await input.blur(); // touched: errors of this field show from now on
    await input.click();
    expect(await storedValue(page)).toMatchObject({ name: 'X' });
    await record(page, input);
    const cdp = await page.context().newCDPSession(page);
    await compose(cdp, page, input);
    expect(await input.inputValue()).toBe(`X${COMMIT}`);
    expect(((await storedValue(page)) as { name: string }).name).toBe(`X${COMMIT}`);
    const rec = await page.evaluate(
      () =>
        (window as unknown as { rec: { values: string[]; errors: string[]; removed: number; control: Element } }).rec,
    );
    // every stored state is the committed one (Chrome may report the commit twice: same value)
    expect(rec.values.length).toBeGreaterThanOrEqual(1);
    for (const v of rec.values) expect((JSON.parse(v) as { name: string }).name).toBe(`X${COMMIT}`);
    // the intermediate states (10 kana > maxLength 6) never produced a message; the committed
    // text is 7 characters, so exactly its maxLength message shows now
    expect(rec.removed).toBe(0);
    expect(
      await page.evaluate(
        () => document.activeElement === (window as unknown as { rec: { control: Element } }).rec.control,
      ),
    ).toBe(true);
    expect(await page.locator('[data-pointer="/name"] .jf-error').textContent()).toBe(TOO_LONG);
    expect(rec.errors.every((e) => e === TOO_LONG)).toBe(true);
    // an ordinary edit after the composition validates at once again (6 characters: valid)
    await page.keyboard.press('Backspace');
    expect(((await storedValue(page)) as { name: string }).name).toBe(`X${COMMIT.slice(0, -1)}`);
    expect(await page.locator('[data-pointer="/name"] .jf-error').textContent()).toBe('');
    await page.screenshot({ path: join(SCREENSHOTS, 'ime-text.png') });
    expect(page.uncaught).toEqual([]);
  });

  it('the rich-text editor stores the committed text once, with no re-render or focus loss', async () => {
    const page = await h.newPage();
    await mountForm(page, h.server.url, SCHEMA);
    const editor = page.locator('[data-pointer="/body"] [contenteditable]');
    await editor.click();
    await record(page, editor);
    const cdp = await page.context().newCDPSession(page);
    await compose(cdp, page, editor);
    expect(await editor.innerText()).toBe(COMMIT);
    expect(((await storedValue(page)) as { body: string }).body).toBe(COMMIT);
    const rec = await page.evaluate(
      () =>
        (window as unknown as { rec: { values: string[]; errors: string[]; removed: number; control: Element } }).rec,
    );
    expect(rec.values.length).toBeGreaterThanOrEqual(1);
    for (const v of rec.values) expect((JSON.parse(v) as { body: string }).body).toBe(COMMIT);
    expect(rec.removed).toBe(0);
    expect(
      await page.evaluate(
        () => document.activeElement === (window as unknown as { rec: { control: Element } }).rec.control,
      ),
    ).toBe(true);
    // a second composition appends: the first text is still there exactly once
    await cdp.send('Input.imeSetComposition', { text: 'です', selectionStart: 2, selectionEnd: 2 });
    expect(((await storedValue(page)) as { body: string }).body).toBe(COMMIT);
    await cdp.send('Input.insertText', { text: 'です' });
    expect(((await storedValue(page)) as { body: string }).body).toBe(`${COMMIT}です`);
    await page.screenshot({ path: join(SCREENSHOTS, 'ime-rich-text.png') });
    expect(page.uncaught).toEqual([]);
  });
});
