/**
 * Schedules of site.json batches: the platform's four forms only, slots in the site's time zone,
 * the latest slot queued once however often (and by however many runners) it is looked at, and
 * the daily batch's 23-hour rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueSlot, latestSlot, parseSchedule } from '../../../src/site/batches/schedule.js';
import { parseSiteConfig } from '../../../src/site/config.js';
import { queueDue } from '../../../src/site/batches/runner.js';
import { siteQueue } from '../../../src/site/batches/site-queue.js';
import { eachSiteQueue, batchSite } from './support/sites.js';
import type { TestSite } from '../support/site-with.js';

/** 2024-03-05 10:07:30 in Tokyo (01:07:30 UTC). */
const T = Date.UTC(2024, 2, 5, 1, 7, 30) / 1000;
const TOKYO = 'Asia/Tokyo';

describe('schedule forms', () => {
  it('takes every 15, 30, 60 minutes and daily at a time; nothing else', () => {
    expect(parseSchedule('*/15 * * * *')).toEqual({ every: 15 });
    expect(parseSchedule('*/30 * * * *')).toEqual({ every: 30 });
    expect(parseSchedule('0 * * * *')).toEqual({ every: 60 });
    expect(parseSchedule('30 4 * * *')).toEqual({ daily: { hour: 4, minute: 30 } });
    for (const bad of ['*/5 * * * *', '* * * * *', '0 4 * * 1', '60 4 * * *', '0 24 * * *', '0 4 1 * *', 'daily', ''])
      expect(parseSchedule(bad), bad).toBeNull();
  });
  it('refuses another form in site.json, naming the key', () => {
    const base = { site_key: 's', timezone: TOKYO, lang: 'ja' };
    expect(() => parseSiteConfig({ ...base, batches: [{ slug: 'x', schedule: '*/5 * * * *' }] }, 'site.json')).toThrow(
      "site.json: /batches/0/schedule: must be one of the platform's schedules",
    );
    expect(() =>
      parseSiteConfig(
        {
          ...base,
          batches: [
            { slug: 'x', id: 1 },
            { slug: 'y', id: 1 },
          ],
        },
        'site.json',
      ),
    ).toThrow('site.json: /batches/1/id: the same as /batches/0/id');
    expect(() => parseSiteConfig({ ...base, batch_queue: 'http://redis' }, 'site.json')).toThrow(
      'site.json: /batch_queue: must be a redis:// URL',
    );
    expect(
      parseSiteConfig({ ...base, batches: [{ slug: 'x', id: 3, schedule: '0 * * * *' }] }, 'site.json').batches,
    ).toEqual([{ slug: 'x', id: 3, schedule: '0 * * * *' }]);
  });
  it("puts slots at the starts of periods in the site's time zone", () => {
    expect(latestSlot({ every: 15 }, T, TOKYO)).toBe(T - 7 * 60 - 30);
    expect(latestSlot({ every: 30 }, T, TOKYO)).toBe(T - 7 * 60 - 30);
    expect(latestSlot({ every: 60 }, T, TOKYO)).toBe(T - 7 * 60 - 30);
    // Daily at 04:30 Tokyo: today's, 5 h 37 min 30 s ago; at 23:00: yesterday's.
    expect(latestSlot({ daily: { hour: 4, minute: 30 } }, T, TOKYO)).toBe(T - (5 * 3600 + 37 * 60 + 30));
    expect(latestSlot({ daily: { hour: 23, minute: 0 } }, T, TOKYO)).toBe(T - (11 * 3600 + 7 * 60 + 30));
    // The same instant is 01:07:30 in UTC: the daily 04:30 slot is yesterday's there.
    expect(latestSlot({ daily: { hour: 4, minute: 30 } }, T, 'UTC')).toBe(T - (20 * 3600 + 37 * 60 + 30));
  });
  it('is due once per slot, and a daily batch not within 23 hours of its last slot', () => {
    const s = { every: 15 } as const;
    const slot = latestSlot(s, T, TOKYO);
    expect(dueSlot(s, T, TOKYO, null)).toBe(slot);
    expect(dueSlot(s, T + 60, TOKYO, slot)).toBeNull();
    expect(dueSlot(s, T + 8 * 60, TOKYO, slot)).toBe(slot + 15 * 60);
    const daily = { daily: { hour: 9, minute: 0 } } as const;
    const today9 = latestSlot(daily, T, TOKYO);
    // The time was changed from 10:00 to 09:00: yesterday's 10:00 slot is 23 h before today's 09:00: due.
    expect(dueSlot(daily, T, TOKYO, today9 - 23 * 3600)).toBe(today9);
    // Changed from 11:00 to 09:00: 22 h: skipped until tomorrow.
    expect(dueSlot(daily, T, TOKYO, today9 - 22 * 3600)).toBeNull();
    expect(dueSlot(daily, T + 86_400, TOKYO, today9 - 22 * 3600)).toBe(today9 + 86_400);
  });
});

eachSiteQueue('scheduled batches', (v) => {
  let site: TestSite;
  beforeAll(async () => {
    site = await batchSite(
      v,
      { tick: 'tick' },
      {
        edit: (c) =>
          ((c.batches as { slug: string; schedule?: string }[]).find((b) => b.slug === 'tick')!.schedule =
            '*/15 * * * *'),
      },
    );
  });
  afterAll(() => site.done());

  it('queues the latest slot once, however often and by however many runners it is looked at', async () => {
    const queue = await siteQueue(site);
    expect(await queueDue(site, queue, T)).toBe(1);
    expect(await queueDue(site, queue, T + 30)).toBe(0);
    // A second runner that has not seen the first's bookkeeping still queues no second run.
    await site.db.run('DELETE FROM batch_schedule WHERE tenant = ?', [site.tenant]);
    expect(await queueDue(site, queue, T + 60)).toBe(1);
    expect(await queue.counts()).toEqual({ queued: 1, running: 0 });
    expect(await queueDue(site, queue, T + 15 * 60)).toBe(1);
    expect(await queue.counts()).toEqual({ queued: 2, running: 0 });
    const r = await queue.claim('w');
    expect([r?.slug, r?.origin, r?.data]).toEqual(['tick', 'schedule', '[]']);
  });
});
