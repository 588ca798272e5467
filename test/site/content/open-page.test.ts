/**
 * A Topics list pages in SQL (ContentAdapter.openPage, D346) exactly as it pages a group read
 * whole (`groupTopics`, filtered by isOpenAt and sorted in the plugin): on a group whose contents
 * share dates, open and close at the render's instant or a second either side, and belong to two
 * categories or none, every page of every size, past the last page included, at three instants,
 * gives the same window and the same ids in the same order, on both backends and both faces.
 */
import { beforeAll, expect, it } from 'vitest';
import { eachBackend, sampleSite } from '../support/backends.js';
import type { Site } from '../../../src/site/open-site.js';
import type { ContentAdapter, ContentReads } from '../../../src/index.js';
import { topicList, type ListQuery } from '../../../src/host-plugins/content/topics-query.js';
import { withRenderSignal } from '../../../src/host-api/render-signal.js';
import { runLater, runNow } from '../../../src/host-api/now-or-later.js';

const GROUP = 50;
const NOW = 1_700_000_000;
/** A small generator of its own, so the group is the same in every run. */
const seeded = (seed: number) => () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;

/** `[ids in order, window]` of a list: what the API's list and pageInfo are made of. */
async function listed(reads: ContentReads, q: ListQuery, now: number, at: 'later' | 'now'): Promise<unknown> {
  const read = { lang: 'ja', render: { now, timezone: 'Asia/Tokyo', lang: 'ja' } };
  const run = at === 'now' ? runNow : runLater;
  const { list, window } = await withRenderSignal(new AbortController().signal, () => run(topicList(reads, q, read)));
  return [list.values().map((t) => (t as { get(k: string): unknown }).get('topics_id')), window];
}

eachBackend('a Topics list paged in SQL', (backend) => {
  let site: Site & { done(): Promise<void> };
  let content: ContentAdapter;
  beforeAll(async () => {
    site = await sampleSite(backend);
    content = site.host.content!;
    const run = (sql: string, params: unknown[]) => site.db.run(sql, [site.tenant, ...(params as never[])]);
    await run('INSERT INTO topics_groups (tenant, id, names) VALUES (?, ?, ?)', [GROUP, '{"ja":"試験"}']);
    await run(
      'INSERT INTO topics_categories (tenant, id, group_id, parent_id, slug, names, order_no, open_flg) VALUES (?, ?, ?, NULL, NULL, ?, 1, 1), (?, ?, ?, NULL, NULL, ?, 2, 1)',
      [501, GROUP, '{"ja":"一"}', site.tenant, 502, GROUP, '{"ja":"二"}'],
    );
    const random = seeded(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const edges = [null, null, null, NOW - 1, NOW, NOW + 1];
    for (let i = 0; i < 90; i++)
      await run(
        'INSERT INTO topics (tenant, id, group_id, slug, ymd, open_flg, open_from, open_until, inst_at, update_at, category_id, order_no) VALUES (?, ?, ?, NULL, ?, ?, ?, ?, 0, 0, ?, 0)',
        [
          5000 + Math.floor(random() * 100_000),
          GROUP,
          pick(['2023-11-14', '2023-11-15', '2023-11-15', '2024-01-01', '2019-02-28']),
          random() < 0.85 ? 1 : 0,
          pick(edges),
          pick(edges),
          pick([null, 501, 502]),
        ],
      ).catch(() => undefined); // an id drawn twice: that content is simply not added again
  });

  it('gives every page of every size the window and ids of the group read whole', async () => {
    expect(content.openPage).toBeTypeOf('function');
    const whole: ContentReads = { ...content, openPage: undefined };
    let compared = 0;
    for (const now of [NOW - 1, NOW, NOW + 1])
      for (const categoryId of [null, 501, 502, 999])
        for (const perPage of [1, 7, 10, 100])
          for (const page of [1, 2, 3, 9, 1000]) {
            const q = { groupId: GROUP, perPage, page, categoryId };
            const expected = await listed(whole, q, now, 'later');
            expect(await listed(content, q, now, 'later')).toEqual(expected);
            if (content.now) expect(await listed(content.now, q, now, 'now')).toEqual(expected);
            compared++;
          }
    expect(compared).toBe(240);
    // The group is what the comparison needs: ties on dates, contents open and closed at the instant.
    const all = await listed(whole, { groupId: GROUP, perPage: 100, page: 1, categoryId: null }, NOW, 'later');
    const [ids] = all as [number[]];
    expect(ids.length).toBeGreaterThan(30);
    expect(ids.length).toBeLessThan(85);
  });

  it('answers the count and no ids past the last page, and a group the tenant lacks as empty', async () => {
    const filter = { now: NOW, categoryId: null };
    const first = await content.openPage!(GROUP, filter, 0, 5);
    expect(first.ids).toHaveLength(5);
    const past = await content.openPage!(GROUP, filter, first.total, 5);
    expect(past).toMatchObject({ total: first.total, ids: [] });
    const lacking = await content.openPage!(4242, filter, 0, 5);
    expect(lacking).toMatchObject({ total: 0, ids: [] });
    // A store that reads the contents with the page (PostgreSQL, D366) has none to give here.
    for (const p of [past, lacking]) expect(p.topics ?? []).toEqual([]);
  });
});
