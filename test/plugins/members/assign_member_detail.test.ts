/**
 * {assign_member_detail} on the sample site: the viewing permission (open_by_group, deprecated
 * open_flg), which fields a viewer gets, and bad attributes. Sample: member 2 (group 1) may view
 * groups 1 and 2; member 5 is in group 3 (viewed by groups 2 and 3), 7 in group 4 (viewed by
 * nobody), 8 in no group, 6 in group 1 with a closed profile; member 1 is the super user.
 */
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';
import { testEngine, templateError } from '../../support/engine.js';

const SHOW = '{assign_member_detail member_id=$id var=m}{foreach from=$m key=k item=v}{$k}={$v};{/foreach}';
const shown = (id: number, open = true) =>
  `{assign_member_detail member_id=${id} open_by_group=${open} var=m}{if $m}{$m.member_id}{else}-{/if}`;

eachBackend('{assign_member_detail}', (backend) => {
  const s = siteBench(backend);

  it("shows a viewable member's public fields, never email or login_id to another member", async () => {
    expect(await s.render(SHOW, { memberId: 2, vars: { id: 3 } })).toBe(
      'member_id=3;name1=鈴木;name2=一郎;nickname=いちろう;open_flg=1;inst_ymdhi=2023-05-02 18:05:00;update_ymdhi=2023-05-02 18:05:00;',
    );
  });

  it("hides, with the same empty array as a missing member: another group's, an unviewed group's, a groupless, a closed profile", async () => {
    for (const id of [5, 7, 8, 6, 999]) {
      expect(await s.render(`${shown(id)}|{$m|@count}`, { memberId: 2 }), `member ${id}`).toBe('-|0');
    }
    expect(await s.render(shown(4), { memberId: 2 })).toBe('4');
  });

  it('a render without a member views nobody while the permission applies', async () => {
    expect(await s.render(shown(3))).toBe('-');
    expect(await s.render(shown(3, false))).toBe('3');
  });

  it('open_by_group=false ignores the permission but still keeps private fields private', async () => {
    expect(await s.render(shown(7, false), { memberId: 2 })).toBe('7');
    expect(
      await s.render(
        '{assign_member_detail member_id=5 open_by_group=false var=m}[{$m.nickname}][{$m.email}][{$m.login_id}]',
        { memberId: 2 },
      ),
    ).toBe('[ken_t][][]');
  });

  it('open_flg=-1 (deprecated) limits to viewable members even with open_by_group=false, and says it is deprecated', async () => {
    const r = await s.result(
      '{assign_member_detail member_id=7 open_by_group=false open_flg=-1 var=m}{if $m}shown{else}hidden{/if}',
      { memberId: 2 },
    );
    expect(r.output).toBe('hidden');
    expect(JSON.stringify(r.logs)).toContain('open_flg is deprecated');
    expect(await s.render('{assign_member_detail member_id=3 open_flg=1 var=m}{$m.member_id}', { memberId: 2 })).toBe(
      '3',
    );
  });

  it('a member sees their own record whole, even with a closed profile; a super user sees everyone whole', async () => {
    expect(
      await s.render('{assign_member_detail member_id=6 var=m}{$m.email} {$m.login_id} {$m.open_flg}', { memberId: 6 }),
    ).toBe('misaki.tanaka@example.com misaki 0');
    expect(await s.render('{assign_member_detail member_id=7 var=m}{$m.email} {$m.login_id}', { memberId: 1 })).toBe(
      'john.smith@example.com john',
    );
  });

  it("member_id names whom to read, so a variable or a super user's id is allowed: the permission decides what shows", async () => {
    expect(
      await s.render('{assign_member_detail member_id=$id var=m}{$m.nickname}[{$m.email}]', {
        memberId: 2,
        vars: { id: '1' },
      }),
    ).toBe('サイト管理者[]');
  });

  it("assign_group_flg adds the group ids and names in the site's language", async () => {
    expect(
      await s.render(
        '{assign_member_detail member_id=4 assign_group_flg=true var=m}{$m.group_ids|@implode:","} {$m.groups.0.group_id}:{$m.groups.0.group_nm}',
        { memberId: 2 },
      ),
    ).toBe('2 2:編集部');
    expect(
      await s.render('{assign_member_detail member_id=3 var=m}{if $m.groups}groups{else}none{/if}', { memberId: 2 }),
    ).toBe('none');
  });

  it('a bad attribute is an error at its line', async () => {
    expect(
      await s.error('x\n{assign_member_detail member_id=$id var=m}', { memberId: 2, vars: { id: 'abc' } }),
    ).toMatchObject({ code: 'E_BAD_ATTRIBUTE', line: 2 });
    expect(await s.error('{assign_member_detail member_id=0 var=m}', { memberId: 2 })).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
      line: 1,
    });
    expect(await s.error('\n\n{assign_member_detail var=m}')).toMatchObject({ code: 'E_MISSING_ATTR', line: 3 });
    expect(await s.error('{assign_member_detail member_id=2 var=m tenant="other"}')).toMatchObject({
      code: 'E_UNKNOWN_ATTR',
    });
  });
});

it('{assign_member_detail} on a host whose members adapter lacks a method says which to pass', async () => {
  const engine = testEngine({ host: { members: { isSuperUser: async () => false, member: async () => null } } });
  const e = await templateError(engine.render('{assign_member_detail member_id=2 var=m}'));
  expect(e.code).toBe('E_HOST_CAPABILITY');
  expect(e.message).toContain('HostAdapters.members.groups');
});
