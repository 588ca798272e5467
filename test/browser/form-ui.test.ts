/**
 * `<json-field-form>` in headless Chromium: every control kind, card limits and alerts, the
 * 'Build UI from JSON schema' option, the JSON Preview modal, rich text across card moves,
 * errors at the three moments (load, blur, submit). Screenshots go to
 * test-artifacts/screenshots/.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { message } from '../../src/forms/messages.js';
import { ALL_KINDS } from './all-kinds.js';
import { describeBrowser, mountForm, SCREENSHOTS, useHarness, storedValue } from './support.js';

const field = (p: Page, pointer: string) => p.locator(`[data-pointer="${pointer}"]`);

describeBrowser('<json-field-form> in Chromium', () => {
  const h = useHarness();

  it('fills every control kind and stores the expected JSON', async () => {
    const page = await h.newPage();
    await mountForm(page, h.server.url, ALL_KINDS, { 'time-zone': 'Asia/Tokyo' });
    const kinds = await page.$$eval('json-field-form [data-pointer]', (els) => els.map((e) => e.className));
    for (const k of [
      'text',
      'select',
      'date',
      'datetime',
      'file-manager',
      'rich-text',
      'textarea',
      'number',
      'number-select',
      'checkbox',
      'comma-textarea',
      'multi-select',
      'json-textarea',
    ]) {
      expect(kinds, k).toContain(`jf-field jf-${k}`);
    }
    expect(await page.locator('fieldset.jf-cards').count()).toBe(1);
    // initial value by the spec's rules: enum[0], numeric enum's first value, empty lists
    expect(await storedValue(page)).toMatchObject({
      title: '',
      color: 'r',
      level: 1,
      ok: false,
      tags: [],
      sizes: [],
      rows: [],
      day: null,
    });

    // labels from title, required mark as text for screen readers, help linked
    const title = page.getByRole('textbox', { name: 'Title (required)', exact: true });
    await expect.poll(() => title.count()).toBe(1);
    const describedBy = (await title.getAttribute('aria-describedby'))!.split(' ');
    expect(await page.locator(`#${describedBy[0]}`).textContent()).toBe('Shown as the heading.');
    expect(await field(page, '/title').locator('.jf-mark').getAttribute('aria-hidden')).toBe('true');
    expect(await field(page, '/note').locator('textarea').getAttribute('rows')).toBe('5');
    expect(await field(page, '/at').locator('input').getAttribute('step')).toBe('1');

    await title.fill('Hello');
    await page.getByLabel('Color').selectOption({ label: 'Green' });
    await page.getByLabel('Day').fill('2024-05-01');
    await page.getByLabel('At').fill('2024-05-01T10:15:30');
    // file manager: the default path picker over /api/files
    await page.getByRole('button', { name: 'Choose file: File' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose a file' });
    await picker.getByRole('button', { name: 'Open folder img' }).click();
    await picker.getByRole('button', { name: 'Choose photo.png' }).click();
    await expect.poll(() => picker.count()).toBe(0);
    // The dialog hides at close(); its 'close' event, which hands back the path, fires a task later.
    const preview = field(page, '/file').locator('a.jf-file-preview');
    await expect.poll(() => preview.getAttribute('href')).toBe('/files/user/img/photo.png');
    const img = await page.request.get(h.server.url + '/files/user/img/photo.png');
    expect(img.headers()['content-type']).toBe('image/png');
    // rich text (contenteditable default adapter)
    await field(page, '/body').locator('[contenteditable]').click();
    await page.keyboard.type('Rich text');
    await page.getByLabel('Note').fill('line 1\nline 2');
    await page.getByLabel('Count').fill('１２'); // full-width digits from a Japanese IME
    await page.getByLabel('Level').selectOption({ label: 'High' });
    await page.getByLabel('OK').check();
    await page.getByLabel('Tags').fill('a, b，c,, ');
    await page.getByLabel('Sizes').selectOption([{ label: 'Small' }, { label: 'Large' }]);
    await page.getByRole('button', { name: 'Add an item', exact: true }).click();
    await field(page, '/rows/0/name').locator('input').fill('first row');
    await page.getByLabel('Meta').fill('{"k": [1, 2]}');

    expect(await storedValue(page)).toEqual({
      title: 'Hello',
      color: 'g',
      day: '2024-05-01',
      at: '2024-05-01T10:15:30+09:00',
      file: '/files/user/img/photo.png',
      body: 'Rich text',
      note: 'line 1\nline 2',
      count: 12,
      level: 3,
      ok: true,
      tags: ['a', 'b', 'c'],
      sizes: ['s', 'l'],
      rows: [{ name: 'first row' }],
      meta: { k: [1, 2] },
    });
    await page.screenshot({ path: join(SCREENSHOTS, 'all-controls.png'), fullPage: true });
    await page.click('#save');
    const submits = await page.evaluate(
      () => (window as unknown as { submits: Array<{ blocked: boolean; posted: string }> }).submits,
    );
    expect(submits).toHaveLength(1);
    expect(submits[0]!.blocked).toBe(false);
    expect(JSON.parse(submits[0]!.posted)).toMatchObject({ title: 'Hello', count: 12 });
    expect(page.uncaught).toEqual([]);
  });

  it('shows errors on blur / after an edit, and all of them on submit (which is cancelled)', async () => {
    const page = await h.newPage();
    await mountForm(page, h.server.url, ALL_KINDS);
    // on load: nothing red
    expect(await page.locator('json-field-form [aria-invalid="true"]').count()).toBe(0);
    const title = page.getByRole('textbox', { name: 'Title (required)', exact: true });
    await title.focus();
    await page.keyboard.press('Tab');
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    expect(await field(page, '/title').locator('.jf-error').textContent()).toBe('This field is required.');
    expect(await page.getByLabel('Day').getAttribute('aria-invalid')).toBeNull();
    // a wrong number shows the coercion message at once and keeps the stored value
    await page.getByLabel('Count').fill('12abc');
    expect(await field(page, '/count').locator('.jf-error').textContent()).toContain('12abc');
    expect((await storedValue(page)) as Record<string, unknown>).toMatchObject({ count: null });
    await page.getByLabel('Count').fill('-1');
    expect(await field(page, '/count').locator('.jf-error').textContent()).toMatch(/0/);
    // submit: everything shows, the submit is cancelled, focus goes to the first invalid field
    await page.click('#save');
    const submits = await page.evaluate(() => (window as unknown as { submits: Array<{ blocked: boolean }> }).submits);
    expect(submits[0]!.blocked).toBe(true);
    expect(await page.getByLabel('Day').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(await title.getAttribute('id'));
    expect(await page.locator('json-field-form .jf-summary').textContent()).toMatch(/fields need attention/);
    await page.screenshot({ path: join(SCREENSHOTS, 'errors-on-submit.png'), fullPage: true });
    // fixing a field clears its error live
    await title.fill('ok');
    expect(await title.getAttribute('aria-invalid')).toBeNull();
  });

  it('adds, reorders and deletes cards at and beyond minItems/maxItems with alerts', async () => {
    const page = await h.newPage();
    await page.goto(`${h.server.url}/demo/product-specs`);
    await page.waitForSelector('json-field-form fieldset.jf-card');
    const cards = page.locator('fieldset.jf-card');
    expect(await cards.count()).toBe(1); // minItems 1 starts with one card
    // delete below minItems: refused with the alert
    await page.getByRole('button', { name: 'Delete item 1' }).click();
    const minMsg = message('card.min-items', { limit: 1 }).en;
    expect(page.alerts).toEqual([minMsg]);
    expect(await page.locator('json-field-form [role=alert]').textContent()).toBe(minMsg);
    expect(await cards.count()).toBe(1);
    // Add below each card; focus moves into the new card
    for (let n = 1; n <= 4; n++) {
      await page.getByRole('button', { name: `Add an item after item ${n}`, exact: true }).click();
      expect(await cards.count()).toBe(n + 1);
      expect(
        await page.evaluate(() => document.activeElement?.closest('fieldset.jf-card')?.getAttribute('data-index')),
      ).toBe(String(n));
    }
    expect(await page.locator('button.jf-add').count()).toBe(5); // one Add below each card
    // add at maxItems: refused with the alert
    await page.getByRole('button', { name: 'Add an item after item 5', exact: true }).click();
    const maxMsg = message('card.max-items', { limit: 5 }).en;
    expect(page.alerts).toEqual([minMsg, maxMsg]);
    expect(await cards.count()).toBe(5);
    // label the cards, then reorder with the keyboard
    for (let i = 0; i < 5; i++) await page.locator(`[data-pointer="/specs/${i}/label"] input`).fill(`L${i + 1}`);
    const up3 = page.getByRole('button', { name: 'Move item 3 up' });
    await up3.focus();
    await page.keyboard.press('Enter');
    expect(((await storedValue(page)) as { specs: Array<{ label: string }> }).specs.map((s) => s.label)).toEqual([
      'L1',
      'L3',
      'L2',
      'L4',
      'L5',
    ]);
    // focus stays on the moved card's button, and the move is announced
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move item 2 up');
    expect(await page.locator('json-field-form [aria-live=polite]').textContent()).toBe('Moved to position 2.');
    await page.getByRole('button', { name: 'Move item 1 down' }).click();
    expect(((await storedValue(page)) as { specs: Array<{ label: string }> }).specs.map((s) => s.label)).toEqual([
      'L3',
      'L1',
      'L2',
      'L4',
      'L5',
    ]);
    // the first card's Up and the last card's Down are aria-disabled (still focusable) and do nothing
    for (const name of ['Move item 1 up', 'Move item 5 down']) {
      const b = page.getByRole('button', { name });
      expect(await b.getAttribute('aria-disabled')).toBe('true');
      await b.focus();
      await page.keyboard.press('Enter');
    }
    expect(((await storedValue(page)) as { specs: Array<{ label: string }> }).specs.map((s) => s.label)).toEqual([
      'L3',
      'L1',
      'L2',
      'L4',
      'L5',
    ]);
    await page.screenshot({ path: join(SCREENSHOTS, 'cards-at-max.png'), fullPage: true });
    // delete down to the minimum, then beyond it
    for (let n = 5; n >= 2; n--) await page.getByRole('button', { name: `Delete item ${n}` }).click();
    expect(((await storedValue(page)) as { specs: Array<{ label: string }> }).specs.map((s) => s.label)).toEqual([
      'L3',
    ]);
    await page.getByRole('button', { name: 'Delete item 1' }).click();
    expect(page.alerts).toEqual([minMsg, maxMsg, minMsg]);
    expect(await cards.count()).toBe(1);
    expect(page.uncaught).toEqual([]);
  });

  it('shows only the first Add with zero cards', async () => {
    const page = await h.newPage();
    await mountForm(page, h.server.url, ALL_KINDS);
    const rows = page.locator('[data-pointer="/rows"]');
    expect(await rows.locator('button.jf-add').count()).toBe(1);
    await rows.getByRole('button', { name: 'Add an item', exact: true }).click();
    await rows.getByRole('button', { name: 'Add an item after item 1' }).click();
    expect(await rows.locator('fieldset.jf-card').count()).toBe(2);
    await rows.getByRole('button', { name: 'Delete item 2' }).click();
    await rows.getByRole('button', { name: 'Delete item 1' }).click();
    expect(await rows.locator('fieldset.jf-card').count()).toBe(0);
    expect(await rows.locator('button.jf-add').count()).toBe(1);
    expect(page.alerts).toEqual([]); // no minItems: no refusal
  });

  it('keeps rich text of card 2 when it moves up, with one editor per card', async () => {
    const page = await h.newPage();
    await page.goto(`${h.server.url}/demo/product-specs`);
    await page.waitForSelector('json-field-form fieldset.jf-card');
    await page.getByRole('button', { name: 'Add an item after item 1', exact: true }).click();
    await page.getByRole('button', { name: 'Add an item after item 2', exact: true }).click();
    const editors = page.locator('fieldset.jf-card [contenteditable]');
    expect(await editors.count()).toBe(3);
    await page.locator('[data-card="/specs/0"] [contenteditable]').click();
    await page.keyboard.type('first');
    await page.locator('[data-card="/specs/1"] [contenteditable]').click();
    await page.keyboard.type('Second card text');
    await page.keyboard.press('Control+B');
    await page.keyboard.type(' bold');
    const typed = await page.locator('[data-card="/specs/1"] [contenteditable]').innerHTML();
    expect(typed).toMatch(/^Second card text<b>(&nbsp;| )bold<\/b>$/);
    await page.getByRole('button', { name: 'Move item 2 up' }).click();
    expect(await page.locator('[data-card="/specs/0"] [contenteditable]').innerHTML()).toBe(typed);
    expect(await page.locator('[data-card="/specs/1"] [contenteditable]').innerText()).toBe('first');
    expect(await page.locator('[data-card="/specs/2"] [contenteditable]').innerText()).toBe('');
    expect(await editors.count()).toBe(3);
    for (let i = 0; i < 3; i++)
      expect(await page.locator(`[data-card="/specs/${i}"] [contenteditable]`).count()).toBe(1);
    // editing one card's editor changes only that card
    await page.locator('[data-card="/specs/2"] [contenteditable]').click();
    await page.keyboard.type('third');
    const specs = ((await storedValue(page)) as { specs: Array<{ detail: string }> }).specs;
    expect(specs.map((s) => s.detail)).toEqual([typed, 'first', 'third']);
    await page.screenshot({ path: join(SCREENSHOTS, 'rich-text-after-move.png'), fullPage: true });
  });

  it("switches 'Build UI from JSON schema' off: a JSON editor only, with validation", async () => {
    const page = await h.newPage();
    await page.goto(`${h.server.url}/demo/article`);
    await page.waitForSelector('json-field-form .jf-field');
    await page.getByLabel('Headline').fill('Kept');
    await page.getByLabel('Build UI from JSON schema').uncheck();
    const form = page.locator('json-field-form');
    expect(await form.locator('.jf-field').count()).toBe(1);
    expect(await form.locator('input, select, [contenteditable]').count()).toBe(0);
    const editor = page.getByRole('textbox', { name: 'Article (JSON)' });
    expect(JSON.parse(await editor.inputValue())).toMatchObject({ headline: 'Kept' });
    // invalid JSON: an error, the stored value is kept
    await editor.fill('{"headline": ');
    expect(await form.locator('.jf-error').textContent()).toMatch(/JSON/);
    expect(await storedValue(page)).toMatchObject({ headline: 'Kept' });
    // valid JSON that breaks the schema: the validator's errors, by path
    await editor.fill(
      JSON.stringify({
        headline: '',
        status: 'draft',
        language: 'ja',
        publishedOn: '2024-05-01',
        featured: false,
        slug: 'Bad Slug',
        keywords: ['a'],
      }),
    );
    await editor.blur();
    const text = await form.locator('.jf-error').textContent();
    expect(text).toContain('/headline: This field is required.');
    expect(text).toContain('/slug:');
    expect(await storedValue(page)).toMatchObject({ slug: 'Bad Slug' });
    await page.screenshot({ path: join(SCREENSHOTS, 'json-editor-only.png'), fullPage: true });
    // back on: the form shows the value typed as JSON
    await page.getByLabel('Build UI from JSON schema').check();
    expect(await page.getByLabel('Slug').inputValue()).toBe('Bad Slug');
  });

  it('opens the JSON Preview as a read-only modal with the current value', async () => {
    const page = await h.newPage();
    await page.goto(`${h.server.url}/demo/event`);
    await page.waitForSelector('json-field-form .jf-field');
    await page.getByLabel('Capacity').fill('40');
    const button = page.getByRole('button', { name: 'JSON Preview' });
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'JSON Preview (read-only)' });
    expect(await dialog.isVisible()).toBe(true);
    const shown = JSON.parse((await dialog.locator('pre').textContent())!) as unknown;
    expect(shown).toEqual(await storedValue(page));
    expect(shown).toMatchObject({ capacity: 40, priority: 3, rating: 1, online: false });
    expect(await dialog.locator('input, textarea, select, [contenteditable]').count()).toBe(0);
    // modal: the page behind is inert
    expect(await page.evaluate(() => document.querySelector('dialog')?.matches(':modal'))).toBe(true);
    await page.screenshot({ path: join(SCREENSHOTS, 'json-preview.png') });
    await page.keyboard.press('Escape');
    expect(await dialog.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('JSON Preview');
  });

  it('refuses a too-deep schema for the form and falls back to the JSON editor with the split advice', async () => {
    const page = await h.newPage();
    await page.goto(`${h.server.url}/demo/too-deep`);
    await page.waitForSelector('json-field-form .jf-json-editor');
    expect(await page.locator('json-field-form .jf-notice').textContent()).toMatch(/Split it into several JSON fields/);
  });

  it('shows Japanese names and messages with lang=ja', async () => {
    const page = await h.newPage();
    await page.goto(`${h.server.url}/demo/product-specs?lang=ja`);
    await page.waitForSelector('json-field-form fieldset.jf-card');
    await page.getByRole('button', { name: '項目1を削除' }).click();
    expect(page.alerts).toEqual([message('card.min-items', { limit: 1 }).ja]);
    expect(await page.getByRole('button', { name: 'JSONプレビュー' }).count()).toBe(1);
    expect(await page.locator('[data-pointer="/name"] .jf-sr').textContent()).toBe(' (必須)');
  });
});
