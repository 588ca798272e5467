/**
 * The site's time zone is the element's `time-zone` attribute, never the browser's: the same
 * date and date-time inputs typed in browser contexts of different time zones (Asia/Tokyo,
 * America/New_York, UTC) store the same JSON, including New York's DST gap and overlap and the
 * 23:59:59 / 00:00:00 edges; stored values with another offset show the same wall-clock time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startFormsServer, type FormsServer } from '../../src/forms-ui/server/app.js';
import { buildBundle, describeBrowser, launchBrowser, mountForm, storedValue } from './support.js';

const BROWSER_ZONES = ['Asia/Tokyo', 'America/New_York', 'UTC'] as const;

const dt = (title: string) => ({ type: ['string', 'null'], title, format: 'date-time' });
const SCHEMA = {
  type: 'object',
  title: 'Times',
  properties: {
    day: { type: ['string', 'null'], title: 'Day', format: 'date' },
    lastSecond: dt('Last second of the year'),
    firstSecond: dt('First second of the year'),
    beforeGap: dt('Before the spring gap'),
    inGap: dt('In the spring gap'),
    afterGap: dt('After the spring gap'),
    inOverlap: dt('In the autumn overlap'),
    afterOverlap: dt('After the autumn overlap'),
  },
};

/** What is typed into each control, and what must be stored, per site zone. */
const CASES: Record<string, { typed: Record<string, string>; stored: Record<string, string> }> = {
  'Asia/Tokyo': {
    typed: {
      Day: '2024-02-29',
      'Last second of the year': '2024-12-31T23:59:59',
      'First second of the year': '2025-01-01T00:00:00',
      'Before the spring gap': '2024-03-10T01:59:59',
      'In the spring gap': '2024-03-10T02:30:00',
      'After the spring gap': '2024-03-10T03:00:00',
      'In the autumn overlap': '2024-11-03T01:30:00',
      'After the autumn overlap': '2024-11-03T23:59:59',
    },
    stored: {
      day: '2024-02-29',
      lastSecond: '2024-12-31T23:59:59+09:00',
      firstSecond: '2025-01-01T00:00:00+09:00',
      beforeGap: '2024-03-10T01:59:59+09:00',
      inGap: '2024-03-10T02:30:00+09:00',
      afterGap: '2024-03-10T03:00:00+09:00',
      inOverlap: '2024-11-03T01:30:00+09:00',
      afterOverlap: '2024-11-03T23:59:59+09:00',
    },
  },
  'America/New_York': {
    typed: {
      Day: '2024-03-10',
      'Last second of the year': '2024-12-31T23:59:59',
      'First second of the year': '2025-01-01T00:00:00',
      'Before the spring gap': '2024-03-10T01:59:59',
      'In the spring gap': '2024-03-10T02:30:00',
      'After the spring gap': '2024-03-10T03:00:00',
      'In the autumn overlap': '2024-11-03T01:30:00',
      'After the autumn overlap': '2024-11-03T23:59:59',
    },
    // the gap's 02:30 does not exist: the time moves forward; in the overlap the earlier (EDT) instant wins
    stored: {
      day: '2024-03-10',
      lastSecond: '2024-12-31T23:59:59-05:00',
      firstSecond: '2025-01-01T00:00:00-05:00',
      beforeGap: '2024-03-10T01:59:59-05:00',
      inGap: '2024-03-10T03:30:00-04:00',
      afterGap: '2024-03-10T03:00:00-04:00',
      inOverlap: '2024-11-03T01:30:00-04:00',
      afterOverlap: '2024-11-03T23:59:59-05:00',
    },
  },
};

describeBrowser('site time zone vs the browser time zone', () => {
  let server: FormsServer;
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    buildBundle();
    dir = mkdtempSync(join(tmpdir(), 'smartcage-tz-'));
    server = await startFormsServer({ storageDir: dir });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(Object.keys(CASES))(
    'site zone %s: the same stored JSON in Tokyo, New York and UTC browsers',
    async (site) => {
      const c = CASES[site]!;
      const results: Record<string, unknown> = {};
      for (const zone of BROWSER_ZONES) {
        const context = await browser.newContext({ timezoneId: zone, locale: 'en-US' });
        const page = await context.newPage();
        page.setDefaultTimeout(5_000);
        await mountForm(page, server.url, SCHEMA, { 'time-zone': site });
        expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(zone);
        for (const [label, text] of Object.entries(c.typed)) await page.getByLabel(label, { exact: true }).fill(text);
        results[zone] = await storedValue(page);
        await context.close();
      }
      for (const zone of BROWSER_ZONES) expect(results[zone], `${site} in a ${zone} browser`).toEqual(c.stored);
    },
  );

  it('a stored value with another offset (or Z) shows the same site wall-clock time in every browser', async () => {
    const value = {
      lastSecond: '2025-01-01T04:59:59Z',
      firstSecond: '2025-01-01T14:00:00+09:00',
      inOverlap: '2024-11-03T06:30:00Z',
      afterOverlap: '2024-11-03T01:30:00-05:00',
    };
    const expected = {
      lastSecond: '2024-12-31T23:59:59',
      firstSecond: '2025-01-01T00:00',
      inOverlap: '2024-11-03T01:30',
      afterOverlap: '2024-11-03T01:30',
    };
    for (const zone of BROWSER_ZONES) {
      const context = await browser.newContext({ timezoneId: zone });
      const page = await context.newPage();
      page.setDefaultTimeout(5_000);
      await mountForm(page, server.url, SCHEMA, { 'time-zone': 'America/New_York', value: JSON.stringify(value) });
      const shown: Record<string, string> = {};
      for (const k of Object.keys(expected)) shown[k] = await page.locator(`[data-pointer="/${k}"] input`).inputValue();
      expect(shown, zone).toEqual(expected);
      // untouched values are kept as stored
      expect(await storedValue(page), zone).toEqual(value);
      await context.close();
    }
  });
});
