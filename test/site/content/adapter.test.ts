/**
 * The local site's content adapters over both backends: the sample data as docs/site.md
 * ("Content") describes it, another tenant's name refused, counters pending until synced.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eachBackend, sampleSite } from '../support/backends.js';
import type { Site } from '../../../src/site/open-site.js';
import type { ContentAdapter } from '../../../src/index.js';

eachBackend('the content adapter', (backend) => {
  let site: Site & { done(): Promise<void> };
  let content: ContentAdapter;
  beforeAll(async () => {
    site = await sampleSite(backend);
    content = site.host.content!;
  });
  afterAll(() => site.done());

  it('holds group 1 with contents 1-26, 26 closed, and group 2 apart', async () => {
    const states = await content.groupTopics(1);
    expect(states.map((s) => s.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 26 }, (_, i) => i + 1));
    expect(states.filter((s) => !s.openFlg).map((s) => s.id)).toEqual([26]);
    expect((await content.groupTopics(2)).map((s) => s.id).sort()).toEqual([27, 28]);
    expect(await content.group(1)).toMatchObject({ names: { ja: 'ニュース', en: 'News' } });
  });

  it('answers a whole content: texts per language, extended values, synced counters', async () => {
    const [t] = await content.topics([1]);
    expect(t!.texts.en!.subject).toBe('Our new website is live');
    expect(t!.texts.ja!.subject).toBe('新しいウェブサイトを公開しました');
    expect(t!.ext).toEqual(
      expect.arrayContaining([
        { columnId: 2, index: 0, value: 107 },
        { columnId: 3, index: 1, value: 'https://example.com/blog/release-notes' },
      ]),
    );
    expect(await content.topics([999])).toEqual([]);
  });

  it('keeps counter writes pending until syncCounters', async () => {
    const target = { topicId: 2, columnId: 2, index: 0 };
    expect(await content.addToCounter(target, 5)).toBe(114 + 5);
    expect(await content.addToCounter(target, 1)).toBe(120);
    const before = (await content.topics([2]))[0]!.ext.find((e) => e.columnId === 2);
    expect(before!.value).toBe(114);
    expect(await content.syncCounters([2, 3])).toBe(1);
    const after = (await content.topics([2]))[0]!.ext.find((e) => e.columnId === 2);
    expect(after!.value).toBe(120);
    expect(await content.syncCounters([2])).toBe(0);
    expect(await content.addToCounter(target, 1)).toBe(121);
    expect(await content.setCounter(target, 7)).toBe(7);
  });

  it('loses no increment that lands while syncs run', async () => {
    const target = { topicId: 4, columnId: 2, index: 0 };
    const base = 100 + 4 * 7;
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 3 === 0 ? content.syncCounters([4, 5]) : content.addToCounter(target, 1),
      ),
    );
    await content.syncCounters([4]);
    expect((await content.topics([4]))[0]!.ext.find((e) => e.columnId === 2)!.value).toBe(base + 20);
  });

  it('answers master tables per language and the child site', async () => {
    const ja = await site.host.masters!.csvTable(1, 'ja');
    expect(ja!.columns).toEqual(['code', 'name', 'region']);
    expect(ja!.rows[2]).toEqual(['13', '東京都', '関東']);
    expect((await site.host.masters!.csvTable(1, 'en'))!.rows[2]).toEqual(['13', 'Tokyo', 'Kanto']);
    expect(await site.host.masters!.csvTable(9, 'ja')).toBeNull();
    expect(await site.host.childSites!.childSite('child')).toMatchObject({
      siteKey: 'child',
      names: { en: 'Support site' },
    });
    expect(await site.host.childSites!.childSite('nope')).toBeNull();
  });
});
