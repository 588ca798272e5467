/**
 * {assign_tag_category_list} on the sample site (1 Genre > 3 Technology > 4 AI, 2 Region): tree
 * order, nesting, languages, and what happens to an orphan, a cycle and a too-deep chain.
 */
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';

const FLAT =
  '{assign_tag_category_list var=c}{foreach from=$c item=x}{$x.tag_category_id}:{$x.level}:{$x.parent_tag_category_id} {/foreach}';

eachBackend('{assign_tag_category_list}', (backend) => {
  const s = siteBench(backend);

  it("lists flat in tree order with levels and parents, named in the site's language or lang", async () => {
    expect(await s.render(FLAT)).toBe('1:0: 3:1:1 4:2:3 2:0: ');
    expect(
      await s.render(
        '{assign_tag_category_list lang="en" var=c}{foreach from=$c item=x}{$x.tag_category_nm};{/foreach}',
      ),
    ).toBe('Genre;Technology;AI and machine learning;Region;');
  });

  it('tree_flg nests children under their parents', async () => {
    expect(
      await s.render(
        '{assign_tag_category_list tree_flg=true var=c}{$c|@count} {$c.0.tag_category_nm} > {$c.0.children.0.tag_category_nm} > {$c.0.children.0.children.0.tag_category_nm} ({$c.0.children.0.children.0.children|@count}) {$c.1.tag_category_nm}',
      ),
    ).toBe('2 ジャンル > テクノロジー > AI・機械学習 (0) 地域');
    expect(await s.render('{assign_tag_category_list var=c}{if $c.0.children}nested{else}flat{/if}')).toBe('flat');
  });

  it('an orphan is top-level, a cycle is left out, a chain is cut at 16 levels', async () => {
    const add = (id: number, parent: number | null, order = 9): Promise<unknown> =>
      s.site.db.run(
        'INSERT INTO tag_categories (tenant, tag_category_id, parent_tag_category_id, names, order_no) VALUES (?, ?, ?, ?, ?)',
        [s.site.tenant, id, parent, `{"en":"c${id}"}`, order],
      );
    await add(10, 99);
    await add(11, 12);
    await add(12, 11);
    await add(13, 13);
    for (let i = 0; i < 20; i++) await add(100 + i, i === 0 ? null : 99 + i, 10);
    const flat = await s.render(
      '{assign_tag_category_list var=c}{foreach from=$c item=x}{$x.tag_category_id}:{$x.level} {/foreach}',
    );
    expect(flat).toMatch(/^1:0 3:1 4:2 2:0 10:0 100:0 101:1 /);
    expect(flat).toContain(' 115:15 ');
    expect(flat).not.toMatch(/\b(11|12|13|116):/);
    expect(
      await s.render(
        '{assign_tag_category_list var=c}{foreach from=$c item=x}{if $x.tag_category_id == 10}[{$x.parent_tag_category_id}]{/if}{/foreach}',
      ),
    ).toBe('[]');
    await s.site.db.run('DELETE FROM tag_categories WHERE tenant = ? AND tag_category_id >= 10', [s.site.tenant]);
  });

  it('a bad attribute is an error at its line', async () => {
    expect(await s.error('\n\n{assign_tag_category_list lang="日本" var=c}')).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
      line: 3,
    });
    expect(await s.error('{assign_tag_category_list tree_flg=$t var=c}', { vars: { t: 'yes' } })).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
    });
    expect(await s.error('{assign_tag_category_list}')).toMatchObject({ code: 'E_MISSING_ATTR' });
  });
});
