/**
 * Sample tags: category 1 (Genre) with four tags and a child category (Technology) that has a
 * child of its own; category 2 (Region). Contents 1-26 of content group 1 carry tags (content 26,
 * the closed one, is the only one tagged Security), and each tag's open-contents count is what
 * those relations give for the open contents 1-25.
 */
import type { SiteContext } from '../site-context.js';
import { insertRows } from './rows.js';

/** [tag_category_id, parent, order_no, ja, en] */
const CATEGORIES: readonly [number, number | null, number, string, string][] = [
  [1, null, 1, 'ジャンル', 'Genre'],
  [2, null, 2, '地域', 'Region'],
  [3, 1, 1, 'テクノロジー', 'Technology'],
  [4, 3, 1, 'AI・機械学習', 'AI and machine learning'],
];

/** [tag_id, tag_category_id, order_no, ja, en (null: not translated yet), inst_ymdhi] */
const TAGS: readonly [number, number, number, string, string | null, string][] = [
  [1, 1, 1, 'お知らせ', 'Announcements', '2023-04-01 09:00:00'],
  [2, 1, 2, 'イベント', 'Events', '2023-04-01 09:00:00'],
  [3, 1, 3, 'プレスリリース', 'Press releases', '2023-04-01 09:05:00'],
  [4, 1, 4, 'キャンペーン', 'Campaigns', '2023-06-12 15:30:00'],
  [5, 2, 1, '東京', 'Tokyo', '2023-04-01 09:10:00'],
  [6, 2, 2, '大阪', 'Osaka', '2023-04-01 09:10:00'],
  [7, 2, 3, '福岡', null, '2023-09-20 13:00:00'],
  [8, 3, 1, 'クラウド', 'Cloud', '2023-05-01 10:00:00'],
  [9, 3, 2, 'セキュリティ', 'Security', '2023-05-01 10:00:00'],
  [10, 4, 1, '生成AI', 'Generative AI', '2023-07-03 16:45:00'],
];

const LAST_OPEN_CONTENT = 25;

/** The tags of content n, in order: a genre, a region, and a campaign or a technology on some. */
function tagsOfContent(n: number): number[] {
  if (n === 26) return [1, 5, 9];
  const tags = [((n - 1) % 4) + 1, 5 + ((n - 1) % 3)];
  if (n % 6 === 0 && n % 4 !== 0) tags.push(4);
  if (n % 5 === 0) tags.push(8);
  if (n % 7 === 0) tags.push(10);
  return tags;
}

export async function sampleTags(ctx: SiteContext): Promise<void> {
  const relations = Array.from({ length: 26 }, (_, i) => i + 1).flatMap((n) =>
    tagsOfContent(n).map((tag, order) => [n, tag, order + 1] as const),
  );
  const openCount = (tag: number): number => relations.filter(([n, t]) => t === tag && n <= LAST_OPEN_CONTENT).length;
  await ctx.db.transaction(async (tx) => {
    const t = ctx.tenant;
    await insertRows(
      tx,
      t,
      'tag_categories',
      ['tag_category_id', 'parent_tag_category_id', 'names', 'order_no'],
      CATEGORIES.map(([id, parent, order, ja, en]) => [id, parent, JSON.stringify({ ja, en }), order]),
    );
    await insertRows(
      tx,
      t,
      'tags',
      ['tag_id', 'tag_category_id', 'names', 'order_no', 'open_contents_cnt', 'inst_ymdhi'],
      TAGS.map(([id, cat, order, ja, en, at]) => [
        id,
        cat,
        JSON.stringify(en === null ? { ja } : { ja, en }),
        order,
        openCount(id),
        at,
      ]),
    );
    await insertRows(
      tx,
      t,
      'tag_relations',
      ['module', 'module_id', 'tag_id', 'order_no'],
      relations.map(([n, tag, order]) => ['topics', n, tag, order]),
    );
  });
}
