/**
 * Accessibility: axe-core (the npm package, run inside Chromium) on the sample list, on the
 * paste box (empty and with its problems shown), on every demo page and on a form with every control kind, each with the 'Build UI from JSON schema'
 * option on and off and with validation errors shown (after a submit), plus the JSON Preview
 * and file picker dialogs open. No violation of serious or critical impact is allowed; the
 * moderate/minor ones are written to test-artifacts/axe.json for reading.
 *
 * Rules disabled: none.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { samples } from '../../src/forms/samples/index.js';
import { ALL_KINDS } from './all-kinds.js';
import { describeBrowser, mountForm, ROOT, useHarness } from './support.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const DISABLED_RULES: string[] = [];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

const checked: Array<{ page: string; violations: Violation[] }> = [];

async function axe(page: Page, label: string): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const found = await page.evaluate(async (disabled) => {
    const a = (
      window as unknown as {
        axe: {
          run(
            ctx: Document,
            o: unknown,
          ): Promise<{
            violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }>;
          }>;
        };
      }
    ).axe;
    const r = await a.run(document, {
      resultTypes: ['violations'],
      rules: Object.fromEntries(disabled.map((id) => [id, { enabled: false }])),
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  }, DISABLED_RULES);
  checked.push({ page: label, violations: found });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

describeBrowser('accessibility (axe-core) of the form UI', () => {
  const h = useHarness();
  afterAll(() => {
    writeFileSync(
      join(ROOT, 'test-artifacts', 'axe.json'),
      JSON.stringify({ pagesChecked: checked.length, disabledRules: DISABLED_RULES, pages: checked }, null, 2),
    );
  });

  it('the sample list has no serious or critical violation', async () => {
    const page = await h.newPage();
    await page.goto(`${h.server.url}/`);
    expect(await axe(page, '/')).toEqual([]);
  });

  it.each(['en', 'ja'])('the paste box (%s), empty and with the problems of a refused schema', async (lang) => {
    const page = await h.newPage();
    await page.goto(`${h.server.url}/paste?lang=${lang}`);
    expect(await axe(page, `/paste?lang=${lang}`)).toEqual([]);
    await page.locator('#schema-text').fill('{"type": "object", "propertis": {}}');
    await page.click('#show-form');
    await page.waitForSelector('#paste-problems');
    expect(await axe(page, `/paste?lang=${lang} (problems shown)`)).toEqual([]);
  });

  it.each(Object.keys(samples).flatMap((n) => [[n, 'en'] as const, [n, 'ja'] as const]))(
    'demo page %s (%s): build UI on and off, with errors shown',
    async (name, lang) => {
      const page = await h.newPage();
      await page.goto(`${h.server.url}/demo/${name}?lang=${lang}`);
      await page.waitForSelector('json-field-form .jf-field, json-field-form fieldset.jf-cards');
      expect(await axe(page, `/demo/${name}?lang=${lang} (form)`)).toEqual([]);
      await page.click('#save'); // shows every error
      expect(await axe(page, `/demo/${name}?lang=${lang} (form, errors shown)`)).toEqual([]);
      await page.locator('#build-ui').uncheck();
      await page.locator('json-field-form textarea.jf-json-editor').fill('{"not": "this schema"}');
      await page.click('#save');
      expect(await axe(page, `/demo/${name}?lang=${lang} (JSON editor, errors shown)`)).toEqual([]);
    },
  );

  it('a form with every control kind: on and off, errors shown, the preview and the file picker open', async () => {
    const page = await h.newPage();
    await mountForm(page, h.server.url, ALL_KINDS, { 'time-zone': 'Asia/Tokyo' });
    expect(await axe(page, 'every control (form)')).toEqual([]);
    await page.getByLabel('Count').fill('12abc'); // a coercion error
    await page.getByRole('button', { name: 'Add an item', exact: true }).click();
    await page.getByRole('button', { name: 'Add an item after item 1', exact: true }).click();
    await page.click('#save');
    expect(await page.locator('json-field-form [aria-invalid="true"]').count()).toBeGreaterThan(2);
    expect(await axe(page, 'every control (form, errors shown, two cards)')).toEqual([]);
    await page.getByRole('button', { name: 'JSON Preview' }).click();
    expect(await axe(page, 'every control (JSON Preview open)')).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Choose file: File' }).click();
    await page
      .getByRole('dialog', { name: 'Choose a file' })
      .getByRole('button', { name: 'Open folder img' })
      .waitFor();
    expect(await axe(page, 'every control (file picker open)')).toEqual([]);
    await page.keyboard.press('Escape');
    await page.locator('json-field-form').evaluate((e) => e.setAttribute('build-ui', 'false'));
    await page.click('#save');
    expect(await axe(page, 'every control (JSON editor, errors shown)')).toEqual([]);
  });
});
