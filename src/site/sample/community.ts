/**
 * Sample comments and favorites on contents 1-25 of content group 1 (by id only: the content rows
 * are the content family's). Content 1 has seven open comments and a closed one; favorites are
 * members' and, for visitors, kept under two cookie ids; their times lie around the example
 * engine's clock (1700000000, 2023-11-15 07:13:20 Asia/Tokyo), some within the last week.
 */
import type { SiteContext } from '../site-context.js';
import { insertRows } from './rows.js';

/** [comment_id, module_id (topics), member_id, name, note, open_flg, inst_ymdhi] */
const COMMENTS: readonly [number, number, number | null, string, string, number, string][] = [
  [1, 1, 2, 'はなこ', '新サービスの開始おめでとうございます！さっそく試してみます。', 1, '2023-11-01 12:10:00'],
  [2, 1, 3, 'いちろう', '料金プランの詳細はどこで確認できますか？', 1, '2023-11-02 09:45:00'],
  [
    3,
    1,
    4,
    'Emily (Editorial)',
    'Thanks for asking! The pricing page is linked at the end of the article.',
    1,
    '2023-11-02 14:00:00',
  ],
  [4, 1, null, 'ゲスト', '英語版のページはありますか？', 1, '2023-11-05 20:30:00'],
  [5, 1, null, 'Visitor', 'Great news, looking forward to the English documentation.', 1, '2023-11-08 08:00:00'],
  [6, 1, 5, 'ken_t', 'プレミアム会員向けの特典も楽しみにしています。', 1, '2023-11-10 22:15:00'],
  [7, 1, null, '通りすがり', '格安で販売中！ http://spam.example/', 0, '2023-11-13 03:00:00'],
  [8, 1, 2, 'はなこ', '英語版のドキュメントは来月公開予定だそうです。', 1, '2023-11-14 18:30:00'],
  [9, 2, 4, 'Emily (Editorial)', 'Photos from the event are now up in the gallery.', 1, '2023-10-21 17:00:00'],
  [10, 2, 2, 'はなこ', 'とても楽しいイベントでした！', 1, '2023-10-22 10:00:00'],
  [11, 2, null, 'ゲスト', '次回の開催日程が知りたいです。', 1, '2023-10-25 13:20:00'],
  [12, 3, 3, 'いちろう', 'プレスリリースの PDF はどこからダウンロードできますか？', 1, '2023-10-10 11:11:00'],
  [13, 5, 5, 'ken_t', 'Case studies of cloud migrations would be helpful.', 1, '2023-09-30 16:00:00'],
  [14, 5, 4, 'Emily (Editorial)', 'We are preparing a series on that, stay tuned.', 1, '2023-10-02 09:30:00'],
];

/** Cookie ids of two visitors' browsers (cookie-managed favorites). */
export const SAMPLE_COOKIE_IDS = ['visitor-7f3a9c2e5b814d06', 'visitor-2b6e0d9a41c35f87'] as const;
const [V1, V2] = SAMPLE_COOKIE_IDS;

/** [module_type, module_id, member_id, cookie_id, action_type (0 like, 1 bookmark), created_at] */
const FAVORITES: readonly [string, number, number | null, string | null, number, number][] = [
  ['topics', 1, 2, null, 0, 1699900000],
  ['topics', 1, 3, null, 0, 1699000000],
  ['topics', 1, 4, null, 0, 1699950000],
  ['topics', 1, 5, null, 0, 1699500000],
  ['topics', 1, 6, null, 0, 1698000000],
  ['topics', 1, null, V1, 0, 1699990000],
  ['topics', 2, 2, null, 0, 1699800000],
  ['topics', 2, 3, null, 0, 1699100000],
  ['topics', 2, 4, null, 0, 1699200000],
  ['topics', 2, null, V2, 0, 1699000500],
  ['topics', 3, 2, null, 0, 1699000000],
  ['topics', 3, null, V1, 0, 1699980000],
  ['topics', 5, 2, null, 0, 1698500000],
  ['topics', 7, null, V1, 0, 1699985000],
  ['topics', 8, 2, null, 0, 1699960000],
  ['topics', 4, 2, null, 1, 1699700000],
  ['topics', 10, 2, null, 1, 1699970000],
  ['comment', 1, 3, null, 0, 1698900000],
  ['member', 4, 2, null, 0, 1699000000],
];

export async function sampleCommunity(ctx: SiteContext): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await insertRows(
      tx,
      ctx.tenant,
      'comments',
      ['comment_id', 'module_type', 'module_id', 'member_id', 'name', 'note', 'open_flg', 'inst_ymdhi'],
      COMMENTS.map(([id, moduleId, member, name, note, open, at]) => [
        id,
        'topics',
        moduleId,
        member,
        name,
        note,
        open,
        at,
      ]),
    );
    await insertRows(
      tx,
      ctx.tenant,
      'favorites',
      ['favorite_id', 'module_type', 'module_id', 'member_id', 'cookie_id', 'action_type', 'created_at'],
      FAVORITES.map((f, i) => [i + 1, ...f]),
    );
  });
}
