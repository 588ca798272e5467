/**
 * The content reads PostgreSQL answers in fewer statements (src/site/adapters/content-postgres.ts,
 * D259) give what SQLite gives: on a group with every column type, texts in four languages
 * written out of order, repeating columns with gaps, NULLs, text that looks like numbers or JSON,
 * escapes, and counters past 2^31 and 2^32, at 2^53 - 1 (past it SQLite
 * refuses to read a row) and below 0, the adapter's answers are the same JSON (key
 * order included) and the Topics list, details and category list render byte for byte the same.
 * And the reads of a list take 1 statement, never sharing one across renders.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, PG_URL } from '../support/backends.js';
import { siteBench, type SiteBench } from '../support/site-bench.js';
import type { SqlValue } from '../../../src/site/db/database.js';
import type { ContentAdapter } from '../../../src/index.js';
import { contentAdapters } from '../../../src/site/adapters/content.js';
import type { SiteContext } from '../../../src/site/site-context.js';
import { topicList } from '../../../src/host-plugins/content/topics-query.js';
import { withRenderSignal } from '../../../src/host-api/render-signal.js';
import { runLater } from '../../../src/host-api/now-or-later.js';

const GROUP = 9;
const IDS = [9001, 9002, 9003, 9004, 9005];
const ODD_TEXT = 'line\nbreak\t"quoted" \\ back \u0001 ctl \u2028 sep 😀 <b>&amp;</b>';

/** Rows of the test group, each `[table, columns, rows]`; the tenant is added first. */
const ROWS: [string, string[], SqlValue[][]][] = [
  [
    'topics_groups',
    ['id', 'names', 'descriptions'],
    [[GROUP, '{"ja":"試験","en":"Test","de":"Prüfung"}', '{"en":"say \\"hi\\"\\n","ja":"説明"}']],
  ],
  [
    'topics_categories',
    ['id', 'group_id', 'parent_id', 'slug', 'names', 'order_no', 'open_flg'],
    [
      [90, GROUP, null, null, '{"en":"Top"}', 2, 1],
      [91, GROUP, 90, 'child', '{"ja":"子","en":"Child"}', 1, 1],
      [92, GROUP, 90, 'hidden', '{"en":"Hidden"}', 1, 0],
      [93, GROUP, null, '7', 'not json', 3, 1],
    ],
  ],
  [
    'topics_ext_columns',
    ['id', 'group_id', 'slug', 'type', 'repeat_cnt', 'order_no'],
    [
      [901, GROUP, 'plain', 'text', 1, 3],
      [902, GROUP, 'area', 'textarea', 1, 1],
      [903, GROUP, 'rich', 'wysiwyg', 1, 2],
      [904, GROUP, 'day', 'date', 1, 4],
      [905, GROUP, 'views', 'counter', 1, 5],
      [906, GROUP, 'data', 'json', 1, 6],
      [907, GROUP, 'links', 'text', 3, 7],
      [908, GROUP, 'votes', 'counter', 3, 8],
      [909, GROUP, 'late', 'text', 1, 8],
    ],
  ],
  [
    'topics',
    [
      'id',
      'group_id',
      'slug',
      'ymd',
      'open_flg',
      'open_from',
      'open_until',
      'inst_at',
      'update_at',
      'category_id',
      'order_no',
    ],
    [
      [9001, GROUP, 'first', '2023-10-01', 1, null, null, 1696118400, 1696204800, 91, 1],
      [9002, GROUP, null, '2023-10-02', 1, 1690000000, 1800000000, 1696204800, 1696204800, null, 0],
      [9003, GROUP, '0', '2023-10-02', 1, null, null, 1696291200, 1699999999, 92, 2],
      [9004, GROUP, 'four', '2023-09-30', 1, null, null, 1696000000, 1696000001, 93, -1],
      [9005, GROUP, 'closed', '2023-10-05', 0, null, null, 1696400000, 1696400000, 90, 0],
    ],
  ],
  [
    'topic_texts',
    ['topic_id', 'lang', 'subject', 'contents'],
    [
      // Written out of language order: the first language (inLang's last fallback) must agree.
      [9001, 'zh', '你好', '<p>中文</p>'],
      [9001, 'en', 'Hello', '<p>English</p>'],
      [9001, 'ja', 'こんにちは', '<p>日本語</p>'],
      [9001, 'de', 'Hallo', ODD_TEXT],
      [9002, 'zh', '只有中文', ''],
      [9002, 'de', 'Nur Deutsch', '<p>de</p>'],
      [9003, 'en', '007', '1e3'],
      [9005, 'ja', '非公開', ''],
    ],
  ],
  [
    'topic_ext_values',
    ['topic_id', 'column_id', 'idx', 'value'],
    [
      [9001, 901, 0, ODD_TEXT],
      [9001, 902, 0, ''],
      [9001, 903, 0, '<p>rich</p>'],
      [9001, 904, 0, '2024-02-29'],
      [9001, 906, 0, '{"a":[1,2.5,null],"b":"x","big":12345678901234567890}'],
      [9001, 907, 2, 'third'],
      [9001, 907, 0, 'first'],
      [9001, 907, 5, 'past the repeat'],
      [9002, 901, 0, null],
      [9002, 906, 0, 'not json'],
      [9002, 907, 1, null],
      [9003, 901, 0, '007'],
      [9003, 904, 0, '1e3'],
      [9003, 906, 0, null],
      [9004, 909, 0, '12'],
    ],
  ],
  [
    'topic_counters',
    ['topic_id', 'column_id', 'idx', 'value'],
    [
      [9001, 905, 0, 2 ** 31 + 7],
      [9001, 908, 2, 2 ** 32],
      [9001, 908, 0, -5],
      [9002, 905, 0, Number.MAX_SAFE_INTEGER],
      [9003, 908, 1, 0],
      [9004, 905, 0, 2 ** 31 - 1],
    ],
  ],
];

async function addRows(bench: SiteBench): Promise<void> {
  for (const [table, columns, rows] of ROWS)
    for (const row of rows)
      await bench.sql(
        `INSERT INTO ${table} (tenant, ${columns.join(', ')}) VALUES (?, ${columns.map(() => '?').join(', ')})`,
        row,
      );
}

const byId = <T extends { id: number }>(list: readonly T[]): T[] => [...list].sort((a, b) => a.id - b.id);

(PG_URL ? describe : describe.skip)('PostgreSQL reads contents as SQLite does', () => {
  const [sqlite, postgres] = BACKENDS.map((b) => siteBench(b)) as [SiteBench, SiteBench];
  beforeAll(async () => {
    await addRows(sqlite);
    await addRows(postgres);
  });
  const both = async <T>(f: (bench: SiteBench) => Promise<T>): Promise<[T, T]> => [await f(sqlite), await f(postgres)];
  const content = (bench: SiteBench): ContentAdapter => bench.site.host.content!;

  it('answers the same contents, groups, columns and categories, key order included', async () => {
    const [a, b] = await both(async (bench) =>
      JSON.stringify({
        topics: byId(await content(bench).topics([...IDS, 1, 26, 999_999, 9001])),
        none: await content(bench).topics([999_999]),
        group: await content(bench).group(GROUP),
        missing: await content(bench).group(999),
        columns: await content(bench).columns(GROUP),
        categories: await content(bench).categories(GROUP),
        sample: await Promise.all([content(bench).group(1), content(bench).columns(1), content(bench).categories(1)]),
      }),
    );
    expect(b).toBe(a);
    const topics = (JSON.parse(b) as { topics: { id: number; texts: object; ext: { value: unknown }[] }[] }).topics;
    expect(topics.map((t) => t.id)).toEqual([1, 26, ...IDS]);
    expect(Object.keys(topics[2]!.texts)).toEqual(['de', 'en', 'ja', 'zh']);
    expect(topics[2]!.ext.map((e) => e.value)).toContain(2 ** 31 + 7);
    expect(topics[3]!.ext.map((e) => e.value)).toEqual([null, 'not json', null, Number.MAX_SAFE_INTEGER]);
  });

  it("gives with a page the contents topics(ids) gives for the page's ids (D366)", async () => {
    const reads = content(postgres);
    for (const [offset, limit] of [
      [0, 10],
      [1, 2],
      [3, 1],
      [4, 5],
    ] as const) {
      const page = await reads.openPage!(GROUP, { now: 1700000000, categoryId: null }, offset, limit);
      expect(page.topics).toBeDefined();
      // Both in no particular order (ContentAdapter.topics): compared by id, key order included.
      const sorted = (l: readonly { id: number }[] = []) => JSON.stringify([...l].sort((a, b) => a.id - b.id));
      expect(sorted(page.topics)).toBe(sorted(await reads.topics(page.ids)));
      if (offset === 0) expect(page.ids).toHaveLength(4);
    }
  });

  it('renders the Topics list, every content in full and the category list byte for byte the same', async () => {
    for (const lang of ['ja', 'en', 'de', 'fr']) {
      const [a, b] = await both((bench) =>
        bench.render(
          '{api_method var=r model="Topics" method="list" method_params=$mp request_params=$rp}{$r|@json_encode}' +
            '{api_method var=c model="TopicsCategory" method="list" method_params=$mp}{$c|@json_encode}',
          { vars: { mp: { topics_group_id: GROUP, lang }, rp: { cnt: 3, pageID: 2 } } },
        ),
      );
      expect(b).toBe(a);
      for (const id of IDS) {
        const [x, y] = await both((bench) =>
          bench.render('{assign_topics_detail var=t topics_id=$id lang=$lang chk_open_flg=false}{$t|@json_encode}', {
            vars: { id, lang },
          }),
        );
        expect(y).toBe(x);
      }
    }
    const whole = await postgres.render(
      '{api_method var=r model="Topics" method="list" method_params=$mp}{$r.list|@json_encode}',
      { vars: { mp: { topics_group_id: GROUP } } },
    );
    const list = JSON.parse(whole) as Record<string, unknown>[];
    expect(list.map((t) => t.topics_id)).toEqual([9003, 9002, 9001, 9004]);
    expect(list[2]).toMatchObject({
      plain: ODD_TEXT,
      views: 2 ** 31 + 7,
      votes: [-5, 0, 2 ** 32],
      links: ['first', 'third'],
    });
  });

  it('reads a Topics list in 1 statement, and shares none between two renders', async () => {
    const site = postgres.site as unknown as SiteContext;
    const sql: string[] = [];
    const db = {
      ...site.db,
      all: (s: string, p?: readonly SqlValue[]) => (sql.push(s), site.db.all(s, p)),
      get: (s: string, p?: readonly SqlValue[]) => (sql.push(s), site.db.get(s, p)),
    };
    const reads = contentAdapters({ ...site, db } as SiteContext).content!;
    const read = { lang: 'ja', render: { now: 1700000000, timezone: 'Asia/Tokyo', lang: 'ja' } };
    const list = async (signal: AbortSignal) =>
      withRenderSignal(signal, () =>
        runLater(topicList(reads, { groupId: GROUP, perPage: 10, page: 1, categoryId: null }, read)),
      );
    const one = await list(new AbortController().signal);
    expect(one.list.size).toBe(4);
    // The group's parts, the page and its contents together (D259, D366, D367).
    expect(sql).toHaveLength(1);
    sql.length = 0;
    await Promise.all([list(new AbortController().signal), list(new AbortController().signal)]);
    expect(sql).toHaveLength(2);
    // A render that has ended starts no statement, and fails only its own reads.
    const ended = new AbortController();
    ended.abort();
    const [gone, kept] = await Promise.allSettled([list(ended.signal), list(new AbortController().signal)]);
    expect(gone.status).toBe('rejected');
    expect(kept.status === 'fulfilled' && kept.value.list.size).toBe(4);
  });
});
