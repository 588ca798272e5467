/**
 * Two sample sites on one database (on PostgreSQL, the same database, as tenants of a real
 * deployment share one): every members, tags and community plugin rendered on site A answers A's
 * rows, whatever B holds, and a refresh on A cannot name B's custom search.
 */
import { beforeAll, expect, it } from 'vitest';
import { eachBackend } from './support/backends.js';
import { siteBench } from './support/site-bench.js';

eachBackend("members, tags and community plugins keep to the render's tenant", (backend) => {
  const a = siteBench(backend);
  const b = siteBench(backend);

  beforeAll(async () => {
    const t = b.site.tenant;
    // The tenant is always the last parameter.
    const run = (sql: string, params: (string | number)[]): Promise<unknown> => b.site.db.run(sql, [...params, t]);
    await run('UPDATE members SET nickname = ?, open_flg = 1 WHERE member_id = 5 AND tenant = ?', ['B の健']);
    await run('INSERT INTO member_group_viewers (group_id, viewer_group_id, tenant) VALUES (3, 1, ?)', []);
    await run('UPDATE member_groups SET names = ? WHERE group_id = 1 AND tenant = ?', ['{"ja":"B の会員"}']);
    await run('UPDATE tags SET names = ? WHERE tag_id = 1 AND tenant = ?', ['{"ja":"B のお知らせ"}']);
    await run('UPDATE tag_categories SET names = ? WHERE tag_category_id = 1 AND tenant = ?', [
      '{"ja":"B のジャンル"}',
    ]);
    await run('DELETE FROM tag_relations WHERE module_id = 5 AND tenant = ?', []);
    await run('DELETE FROM comments WHERE module_id = 1 AND tenant = ?', []);
    await run('DELETE FROM favorites WHERE tenant = ?', []);
    await run('INSERT INTO member_custom_searches (cs_id, name, conditions, tenant) VALUES (4, ?, ?, ?)', [
      'B only',
      '{}',
    ]);
  });

  it("B's changes show on B and not on A", async () => {
    const page =
      '{assign_member_detail member_id=5 var=m}[{$m.nickname}]' +
      '{assign_group_nm group_id=1 var=g}[{$g}]' +
      '{assign_tag_list category_id=1 var=t}[{$t.0.tag_nm}]' +
      '{assign_tag_category_list var=c}[{$c.0.tag_category_nm}]' +
      '{assign_relation_tag_list module_id=5 var=r}[{$r|@count}]' +
      '{assign_new_comment_list module_id=1 var=n}[{$n|@count}]' +
      '{assign_favorite_cnt module_id=1 var=f}[{$f}]' +
      '{assign_my_favorite_cnt var=my}[{$my}]';
    expect(await a.render(page, { memberId: 2 })).toBe('[][一般会員][お知らせ][ジャンル][3][5][6][5]');
    expect(await b.render(page, { memberId: 2 })).toBe('[B の健][B の会員][B のお知らせ][B のジャンル][0][0][0][0]');
  });

  it('refresh_cs on A cannot name a custom search of B', async () => {
    expect(await a.error('{refresh_cs add=$ids}', { memberId: 2, vars: { ids: [4] } })).toMatchObject({
      code: 'E_NOT_FOUND',
    });
    await b.render('{refresh_cs add=$ids}', { memberId: 2, vars: { ids: [4] } });
    const rows = await b.site.db.all<{ tenant: string; cs_id: number }>(
      'SELECT tenant, cs_id FROM member_custom_search_results WHERE cs_id = 4 AND member_id = 2 AND tenant IN (?, ?)',
      [a.site.tenant, b.site.tenant],
    );
    expect(rows).toEqual([{ tenant: b.site.tenant, cs_id: 4 }]);
  });

  it('no attribute names a tenant', async () => {
    expect(await a.error(`{assign_tag_list category_id=1 tenant="${b.site.tenant}" var=t}`)).toMatchObject({
      code: 'E_UNKNOWN_ATTR',
    });
  });
});
