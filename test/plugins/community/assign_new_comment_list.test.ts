/**
 * {assign_new_comment_list} on the sample site: content 1 has open comments 1-6 and 8 (8 the
 * newest) and a closed one, 7; contents 2, 3 and 5 have a few more.
 */
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';

const IDS = '{foreach from=$c item=x}{$x.comment_id} {/foreach}';
const list = (attrs: string): string => `{assign_new_comment_list ${attrs} var=c}${IDS}`;

eachBackend('{assign_new_comment_list}', (backend) => {
  const s = siteBench(backend);

  it('lists the newest 5 open comments of an item, newest first; a closed comment never', async () => {
    expect(await s.render(list('module_id=1'))).toBe('8 6 5 4 3 ');
    expect(await s.render(list('module_id=1 cnt=100'))).toBe('8 6 5 4 3 2 1 ');
  });

  it('new_order_flg=false shows the same newest comments oldest first', async () => {
    expect(await s.render(list('module_id=1 new_order_flg=false'))).toBe('3 4 5 6 8 ');
    expect(await s.render(list('module_id=1 cnt=2 new_order_flg=false'))).toBe('6 8 ');
  });

  it('without module_id: the newest of every item of the module type; another type has none here', async () => {
    expect(await s.render(list('cnt=3'))).toBe('8 6 5 ');
    expect(await s.render(list('module_type="comment"'))).toBe('');
  });

  it("gives each comment's fields, a visitor's member_id null, and nothing of the member beyond the id", async () => {
    expect(
      await s.render(
        '{assign_new_comment_list module_id=1 cnt=5 var=c}{$c.3|@array_keys|@implode:","}|{if $c.3.member_id === null}visitor{/if} {$c.3.name}|{$c.4.member_id} {$c.4.name} {$c.4.inst_ymdhi} {$c.4.module_type}:{$c.4.module_id}',
      ),
    ).toBe(
      'comment_id,module_type,module_id,member_id,name,note,inst_ymdhi|visitor ゲスト|4 Emily (Editorial) 2023-11-02 14:00:00 topics:1',
    );
  });

  it('cnt is bounded to 1..100; a bad attribute is an error at its line', async () => {
    for (const cnt of [0, 101, 1000000, 'all']) {
      expect(
        await s.error('\n{assign_new_comment_list module_id=1 cnt=$n var=c}', { vars: { n: cnt } }),
        String(cnt),
      ).toMatchObject({ code: 'E_BAD_ATTRIBUTE', line: 2 });
    }
    expect(await s.error('{assign_new_comment_list module_type="news" var=c}')).toMatchObject({ code: 'E_BAD_ATTR' });
    expect(await s.error('{assign_new_comment_list module_id=1}')).toMatchObject({ code: 'E_MISSING_ATTR' });
  });
});
