/**
 * Sample members and groups. Member 1 is the super user (site.json super_users) and member 2 an
 * ordinary member of group 1; the others sit in groups that member 2 may or may not view, so the
 * viewing permissions have something to show and something to hide (docs/site.md).
 */
import type { SiteContext } from '../site-context.js';
import { insertRows } from './rows.js';

/** [member_id, name1, name2, nickname, email, login_id, open_flg, groups, inst_ymdhi] */
const MEMBERS: readonly [number, string, string, string, string, string, number, number[], string][] = [
  [1, '山田', '太郎', 'サイト管理者', 'admin@example.com', 'admin', 1, [2], '2023-04-01 09:00:00'],
  [2, '佐藤', '花子', 'はなこ', 'hanako.sato@example.com', 'hanako', 1, [1], '2023-04-15 10:30:00'],
  [3, '鈴木', '一郎', 'いちろう', 'ichiro.suzuki@example.com', 'ichiro', 1, [1], '2023-05-02 18:05:00'],
  [4, 'Clark', 'Emily', 'Emily (Editorial)', 'emily.clark@example.com', 'emily', 1, [2], '2023-05-20 11:00:00'],
  [5, '高橋', '健', 'ken_t', 'ken.takahashi@example.com', 'ken', 1, [3], '2023-06-08 21:40:00'],
  [6, '田中', '美咲', 'みさき', 'misaki.tanaka@example.com', 'misaki', 0, [1], '2023-07-11 08:15:00'],
  [7, 'Smith', 'John', 'John', 'john.smith@example.com', 'john', 1, [4], '2023-08-30 14:20:00'],
  [8, '伊藤', 'さくら', 'さくら', 'sakura.ito@example.com', 'sakura', 1, [], '2023-10-05 19:45:00'],
];

/** [group_id, ja, en, groups whose members may view this group's members] */
const GROUPS: readonly [number, string, string, number[]][] = [
  [1, '一般会員', 'Regular members', [1, 2]],
  [2, '編集部', 'Editorial team', [1, 2, 3]],
  [3, 'プレミアム会員', 'Premium members', [2, 3]],
  [4, 'システム管理', 'System administrators', []],
];

/** [cs_id, name, conditions, members cached as its results] */
const CUSTOM_SEARCHES: readonly [number, string, string, number[]][] = [
  [1, '一般会員(公開プロフィール) / Regular members with open profiles', '{"group_ids":[1],"open_flg":1}', [2, 3]],
  [2, '編集部とプレミアム会員 / Editorial and premium', '{"group_ids":[2,3]}', [1, 4, 5]],
  [3, '全会員 / All members', '{}', [1, 2, 3, 4, 5, 6, 7, 8]],
];

export async function sampleMembers(ctx: SiteContext): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const t = ctx.tenant;
    await insertRows(
      tx,
      t,
      'members',
      ['member_id', 'name1', 'name2', 'nickname', 'email', 'login_id', 'open_flg', 'inst_ymdhi', 'update_ymdhi'],
      MEMBERS.map(([id, n1, n2, nick, email, login, open, , at]) => [id, n1, n2, nick, email, login, open, at, at]),
    );
    await insertRows(
      tx,
      t,
      'member_groups',
      ['group_id', 'names', 'order_no'],
      GROUPS.map(([id, ja, en]) => [id, JSON.stringify({ ja, en }), id]),
    );
    await insertRows(
      tx,
      t,
      'member_group_viewers',
      ['group_id', 'viewer_group_id'],
      GROUPS.flatMap(([id, , , viewers]) => viewers.map((v) => [id, v])),
    );
    await insertRows(
      tx,
      t,
      'member_group_members',
      ['member_id', 'group_id'],
      MEMBERS.flatMap(([id, , , , , , , groups]) => groups.map((g) => [id, g])),
    );
    await insertRows(
      tx,
      t,
      'member_custom_searches',
      ['cs_id', 'name', 'conditions'],
      CUSTOM_SEARCHES.map(([id, name, cond]) => [id, name, cond]),
    );
    await insertRows(
      tx,
      t,
      'member_custom_search_results',
      ['cs_id', 'member_id'],
      CUSTOM_SEARCHES.flatMap(([id, , , members]) => members.map((m) => [id, m])),
    );
  });
}
