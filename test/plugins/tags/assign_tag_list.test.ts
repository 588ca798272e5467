/**
 * {assign_tag_list} on the sample site: category 1 holds お知らせ (7 open contents), イベント (6),
 * プレスリリース (6), キャンペーン (8). Ordering takes whitelisted columns only; it sorts the
 * items itself, so no text of `order` ever reaches a query.
 */
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';

const IDS = '{foreach from=$t item=x}{$x.tag_id} {/foreach}';
const list = (attrs: string): string => `{assign_tag_list category_id=1 ${attrs} var=t}${IDS}`;

eachBackend('{assign_tag_list}', (backend) => {
  const s = siteBench(backend);

  it("lists the category's own tags by order_no, with their fields", async () => {
    expect(await s.render(list(''))).toBe('1 2 3 4 ');
    expect(
      await s.render(
        '{assign_tag_list category_id=2 var=t}{foreach from=$t item=x}{$x.tag_nm}|{$x.tag_category_id}|{$x.open_contents_cnt}|{$x.order_no}|{$x.inst_ymdhi};{/foreach}',
      ),
    ).toBe('東京|2|9|1|2023-04-01 09:10:00;大阪|2|8|2|2023-04-01 09:10:00;福岡|2|8|3|2023-09-20 13:00:00;');
    // Category 3's tags are not category 1's, though 3 is its child.
    expect(await s.render('{assign_tag_list category_id=3 var=t}' + IDS)).toBe('8 9 ');
    expect(await s.render('{assign_tag_list category_id=99 var=t}{$t|@count}')).toBe('0');
  });

  it('orders by a string, several keys, an array of keys or of column => direction; ties end in tag_id', async () => {
    expect(await s.render(list('order="open_contents_cnt:desc"'))).toBe('4 1 2 3 ');
    expect(await s.render(list('order="open_contents_cnt:ASC, tag_id:desc"'))).toBe('3 2 1 4 ');
    // By code point: お < イ < キ < プ.
    expect(await s.render(list('order="tag_nm"'))).toBe('1 2 4 3 ');
    expect(await s.render(list('order=$o'), { vars: { o: ['open_contents_cnt', 'tag_id:desc'] } })).toBe('3 2 1 4 ');
    expect(await s.render(list('order=$o'), { vars: { o: { inst_ymdhi: 'desc' } } })).toBe('4 3 1 2 ');
  });

  it('refuses any column or direction outside the whitelist (an injection attempt changes nothing)', async () => {
    const attempts = [
      'tag_id; DROP TABLE tags',
      'tag_id:desc; --',
      '(SELECT 1)',
      'tag_id DESC',
      'tenant',
      'email',
      'tag_id:sideways',
      'a,b,c',
      'tag_id,tag_id,tag_id,tag_id,tag_id,tag_id',
      '__proto__',
      'constructor:desc',
    ];
    for (const o of attempts) {
      expect(await s.error('\n' + list('order=$o'), { vars: { o } }), o).toMatchObject({
        code: 'E_BAD_ATTRIBUTE',
        line: 2,
      });
    }
    for (const o of [['tag_id; DROP TABLE tags'], { 'tag_id; --': 'asc' }, { tag_id: 'desc; --' }, [['tag_id']], [1]]) {
      expect(await s.error(list('order=$o'), { vars: { o } }), JSON.stringify(o)).toMatchObject({
        code: 'E_BAD_ATTRIBUTE',
      });
    }
    expect(
      (await s.site.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM tags WHERE tenant = ?', [s.site.tenant]))!.n,
    ).toBe(10);
  });

  it('category_id is required and an integer', async () => {
    expect(await s.error('{assign_tag_list var=t}')).toMatchObject({ code: 'E_MISSING_ATTR' });
    expect(await s.error('{assign_tag_list category_id=$c var=t}', { vars: { c: '1 OR 1=1' } })).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
    });
  });
});
