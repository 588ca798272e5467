/**
 * {assign_topics_detail} on the sample site, both backends: the API's details shape, open
 * flag and open/close dates against the render's clock (chk_open_flg, default true), lang and
 * its fallback, and bad attributes as errors at their line.
 */
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { FIXED_NOW, templateError } from '../../support/engine.js';
import { siteBench } from '../../site/support/site-bench.js';
import { createEngine } from '../../../src/index.js';

const DUMP = '{assign_topics_detail var=t topics_id=$id lang=$lang}{$t|@json_encode}';

eachBackend('assign_topics_detail', (backend) => {
  const bench = siteBench(backend);
  const detail = async (id: number, lang = ''): Promise<Record<string, unknown> | null> =>
    JSON.parse(await bench.render(DUMP, { vars: { id, lang } })) as Record<string, unknown> | null;

  it("gives the content API's details shape, in the site's language by default", async () => {
    const t = await detail(5);
    expect(Object.keys(t!).slice(0, 21)).toEqual([
      'topics_id',
      'ymd',
      'contents_type',
      'subject',
      'topics_flg',
      'open_flg',
      'regular_flg',
      'inst_ymdhi',
      'update_ymdhi',
      'topics_group_id',
      'slug',
      'order_no',
      'group_nm',
      'group_description',
      'contents_type_cnt',
      'contents_type_nm',
      'contents_type_slug',
      'contents_type_parent_nm',
      'category_parent_id',
      'contents_type_list',
      'contents',
    ]);
    expect(t).toMatchObject({
      topics_id: 5,
      topics_group_id: 1,
      ymd: '2023-10-05',
      subject: 'ウェビナー「はじめてのヘッドレスCMS」',
      open_flg: 1,
      slug: 'news-5',
      inst_ymdhi: '2023-10-04T09:00:00+09:00',
      update_ymdhi: '2023-10-05T10:00:00+09:00',
      group_nm: 'ニュース',
      contents_type: 4,
      contents_type_nm: 'ウェビナー',
      contents_type_slug: 'webinars',
      contents_type_parent_nm: 'イベント',
      category_parent_id: 2,
      contents_type_list: [4],
      author: 'Kenji Tanaka',
      view_count: 135,
      reactions: [5, 1, 1],
      related_links: [],
      event_date: '2023-11-05',
    });
  });

  it("lists a repeating text column's values in index order and prints times in the site's time zone", async () => {
    const t = await detail(1, 'en');
    expect(t).toMatchObject({
      subject: 'Our new website is live',
      group_nm: 'News',
      contents_type_nm: 'Announcements',
      contents_type_parent_nm: null,
      related_links: ['https://example.com/docs/getting-started', 'https://example.com/blog/release-notes'],
    });
  });

  it("falls back to the site's language for a text missing in the one asked for", async () => {
    await bench.sql("DELETE FROM topic_texts WHERE tenant = ? AND topic_id = 2 AND lang = 'en'");
    expect((await detail(2, 'en'))!.subject).toBe('2023年度上期の業績を発表しました');
    expect((await detail(3, 'en'))!.subject).toBe('Developer meetup in Tokyo');
  });

  it('decodes a json column and gives null for one that does not parse', async () => {
    await bench.sql(
      "INSERT INTO topics_ext_columns (tenant, id, group_id, slug, type, repeat_cnt, order_no) VALUES (?, 7, 1, 'settings', 'json', 1, 7)",
    );
    await bench.sql(
      'INSERT INTO topic_ext_values (tenant, topic_id, column_id, idx, value) VALUES (?, 6, 7, 0, ?), (?, 7, 7, 0, ?)',
      ['{"theme": "dark", "sizes": [1, 2]}', bench.site.tenant, '{broken'],
    );
    expect(
      await bench.render(
        '{assign_topics_detail var=t topics_id=6}{$t.settings.theme} {$t.settings.sizes|@count}|{assign_topics_detail var=t topics_id=7}{if $t.settings === null}null{/if}',
      ),
    ).toBe('dark 2|null');
  });

  it('finds a closed content only with chk_open_flg=false', async () => {
    expect(await detail(26)).toBeNull();
    expect(
      await bench.render('{assign_topics_detail var=t topics_id=26 chk_open_flg=false}{$t.topics_id}:{$t.open_flg}'),
    ).toBe('26:0');
    expect(
      await bench.render('{assign_topics_detail var=t topics_id=26 chk_open_flg=true}{if $t === null}none{/if}'),
    ).toBe('none');
  });

  it("checks the open and close dates against the render's clock", async () => {
    await bench.site.db.run('UPDATE topics SET open_from = ?, open_until = ? WHERE tenant = ? AND id = 4', [
      FIXED_NOW + 60,
      FIXED_NOW + 120,
      bench.site.tenant,
    ]);
    const at = async (now: number): Promise<string> => {
      bench.clock.now = now;
      return bench.render(
        '{assign_topics_detail var=t topics_id=4}{if $t}open{else}closed{/if}|{assign_topics_detail var=t topics_id=4 chk_open_flg=false}{$t.topics_id}',
      );
    };
    try {
      expect(await at(FIXED_NOW + 59)).toBe('closed|4');
      expect(await at(FIXED_NOW + 60)).toBe('open|4');
      expect(await at(FIXED_NOW + 119)).toBe('open|4');
      expect(await at(FIXED_NOW + 120)).toBe('closed|4');
    } finally {
      bench.clock.now = FIXED_NOW;
    }
  });

  it('gives null for an ID the site has no content of, replacing what the variable held', async () => {
    expect(
      await bench.render(
        '{assign var=t value="stale"}{assign_topics_detail var=t topics_id=4040}{if $t === null}null{/if}',
      ),
    ).toBe('null');
  });

  it('refuses bad attributes at their line', async () => {
    expect(await bench.error('line 1\n{assign_topics_detail var=t}')).toMatchObject({
      code: 'E_MISSING_ATTR',
      line: 2,
    });
    expect(await bench.error('\n\n{assign_topics_detail var=t topics_id=$id}', { vars: { id: 'abc' } })).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
      line: 3,
    });
    expect(
      await bench.error('{assign_topics_detail var=t topics_id=1 lang=$l}', { vars: { l: 'english' } }),
    ).toMatchObject({ code: 'E_BAD_ATTRIBUTE', line: 1 });
    expect(await bench.error('{assign_topics_detail var=t topics_id=1 id=1}')).toMatchObject({
      code: 'E_UNKNOWN_ATTR',
    });
  });
});

it('is E_HOST_CAPABILITY on a host without the content adapter', async () => {
  const engine = createEngine({ workers: 0 });
  try {
    const e = await templateError(engine.render('{assign_topics_detail var=t topics_id=1}'));
    expect(e.code).toBe('E_HOST_CAPABILITY');
    expect(e.message).toContain('HostAdapters.content');
  } finally {
    await engine.close();
  }
});
