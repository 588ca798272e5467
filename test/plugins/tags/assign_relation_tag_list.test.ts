/**
 * {assign_relation_tag_list} on the sample site: content 5 carries お知らせ (1), 大阪 (6) and
 * クラウド (8); content 26 お知らせ, 東京 (5) and セキュリティ (9). A given tag_relation_list
 * takes the place of the stored relations, resolved against the site's own tags.
 */
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';

const IDS = '{foreach from=$t item=x}{$x.id} {/foreach}';

eachBackend('{assign_relation_tag_list}', (backend) => {
  const s = siteBench(backend);

  it("lists an item's tags in relation order, as tag items with names and categories", async () => {
    expect(
      await s.render(
        '{assign_relation_tag_list module_id=5 var=t}{foreach from=$t item=x}{$x.id}:{$x.tag_nm}:{$x.tag_category_id}:{$x.tag_category_nm};{/foreach}',
      ),
    ).toBe('1:お知らせ:1:ジャンル;6:大阪:2:地域;8:クラウド:3:テクノロジー;');
    expect(await s.render('{assign_relation_tag_list module="topics" module_id=26 var=t}' + IDS)).toBe('1 5 9 ');
  });

  it('tag_category_id keeps one category; another module or an untagged item gives an empty list', async () => {
    expect(await s.render('{assign_relation_tag_list module_id=5 tag_category_id=3 var=t}' + IDS)).toBe('8 ');
    expect(await s.render('{assign_relation_tag_list module="member" module_id=5 var=t}{$t|@count}')).toBe('0');
    expect(await s.render('{assign_relation_tag_list module_id=999 var=t}{$t|@count}')).toBe('0');
  });

  it('a tag_relation_list is used instead: given order, repeats and unknown ids left out, and its own output reads back', async () => {
    expect(
      await s.render('{assign_relation_tag_list module_id=1 tag_relation_list=$l var=t}' + IDS, {
        vars: { l: [{ id: 8 }, { id: '1', tag_nm: 'ignored' }, { id: 8 }, { id: 999 }] },
      }),
    ).toBe('8 1 ');
    expect(
      await s.render(
        '{assign_relation_tag_list module_id=5 var=a}{assign_relation_tag_list module_id=1 tag_relation_list=$a tag_category_id=2 var=t}' +
          IDS,
      ),
    ).toBe('6 ');
  });

  it('refuses a malformed tag_relation_list and a module outside the list', async () => {
    for (const l of [
      [1, 2],
      [{ tag_id: 1 }],
      [{ id: 'x' }],
      [{ id: 0 }],
      Array.from({ length: 1001 }, () => ({ id: 1 })),
    ]) {
      expect(
        await s.error('\n{assign_relation_tag_list module_id=1 tag_relation_list=$l var=t}', { vars: { l } }),
        JSON.stringify(l).slice(0, 30),
      ).toMatchObject({ code: 'E_BAD_ATTRIBUTE', line: 2 });
    }
    expect(await s.error('{assign_relation_tag_list module="users; --" module_id=1 var=t}')).toMatchObject({
      code: 'E_BAD_ATTR',
    });
    expect(
      await s.error('{assign_relation_tag_list module=$m module_id=1 var=t}', { vars: { m: 'users' } }),
    ).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    expect(await s.error('{assign_relation_tag_list var=t}')).toMatchObject({ code: 'E_MISSING_ATTR' });
  });
});
