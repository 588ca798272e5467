/**
 * {assign_topics_category_list} on both backends: the published categories of a group only (a
 * category under an unpublished one is not published either), in display order, in the language asked.
 */
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';

eachBackend('assign_topics_category_list', (backend) => {
  const bench = siteBench(backend);
  const names = (lang: string, group = 1): Promise<string> =>
    bench.render(
      '{assign_topics_category_list var=c topics_group_id=$g lang=$lang}{foreach from=$c item=x}{$x.topics_category_id}:{$x.category_nm}/{$x.category_parent_id};{/foreach}',
      { vars: { lang, g: group } },
    );

  it('lists the published categories in display order, without the unpublished one', async () => {
    expect(await names('en')).toBe('1:Announcements/;2:Events/;3:Press releases/;4:Webinars/2;');
    expect(await names('ja')).toBe('1:お知らせ/;2:イベント/;3:プレスリリース/;4:ウェビナー/2;');
  });

  it('gives each category its group, slug and order', async () => {
    const json = await bench.render('{assign_topics_category_list var=c topics_group_id=1}{$c.3|@json_encode}');
    expect(JSON.parse(json)).toEqual({
      topics_category_id: 4,
      topics_group_id: 1,
      category_nm: 'ウェビナー',
      slug: 'webinars',
      category_parent_id: 2,
      order_no: 4,
    });
  });

  it('hides a category whose parent is unpublished', async () => {
    await bench.sql('UPDATE topics_categories SET open_flg = 0 WHERE tenant = ? AND id = 2');
    try {
      expect(await names('en')).toBe('1:Announcements/;3:Press releases/;');
    } finally {
      await bench.sql('UPDATE topics_categories SET open_flg = 1 WHERE tenant = ? AND id = 2');
    }
  });

  it('gives an empty list for a group without categories or that the site does not have', async () => {
    expect(await names('en', 2)).toBe('');
    expect(await bench.render('{assign_topics_category_list var=c topics_group_id=99}{$c|@count}')).toBe('0');
  });

  it('refuses a missing or non-numeric group at its line', async () => {
    expect(await bench.error('\n{assign_topics_category_list var=c}')).toMatchObject({
      code: 'E_MISSING_ATTR',
      line: 2,
    });
    expect(
      await bench.error('{assign_topics_category_list var=c topics_group_id=$g}', { vars: { g: 'news' } }),
    ).toMatchObject({ code: 'E_BAD_ATTRIBUTE', line: 1 });
  });
});
