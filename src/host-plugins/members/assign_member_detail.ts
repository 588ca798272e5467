/**
 * {assign_member_detail}: one member, as far as the render's member may see them (viewing.ts).
 * A member who is missing or not viewable gives the same empty array.
 */
import { implement } from '../plugin-contract.js';
import { PhpArray, type Value } from '../../value/value.js';
import type { MemberRecord } from '../../host-api/adapters/members.js';
import { adapterWith } from '../../host-api/capabilities.js';
import { mayView, seesPrivate } from './viewing.js';
import { inLang } from '../data-attrs.js';
import declaration from '../../plugins/host-members/assign_member_detail.js';

export const assignMemberDetail = implement(declaration, async (attrs, call) => {
  const members = adapterWith(call.host, 'members', '{assign_member_detail}', ['member', 'groups']);
  const log: { level: 'warning'; message: string }[] = [];
  if (attrs.open_flg !== undefined)
    log.push({ level: 'warning', message: '{assign_member_detail} open_flg is deprecated: use open_by_group' });
  const checked = attrs.open_by_group !== false || attrs.open_flg === -1;
  const target = await members.member(Number(attrs.member_id));
  if (!target || (checked && !(await mayView(target, call, members))))
    return { assign: [[String(attrs.var), PhpArray.empty()]], log };

  const out = detail(target, seesPrivate(target, call));
  if (attrs.assign_group_flg === true) {
    const groups = await members.groups(target.groupIds);
    out.set('group_ids', PhpArray.fromList([...target.groupIds]));
    const siteLang = call.render.lang;
    out.set(
      'groups',
      PhpArray.fromList(
        groups.map((g) =>
          PhpArray.fromEntries([
            ['group_id', g.groupId],
            ['group_nm', inLang(g.names, siteLang, siteLang) ?? ''],
          ]),
        ),
      ),
    );
  }
  return { assign: [[String(attrs.var), out]], log };
});

function detail(m: MemberRecord, withPrivate: boolean): PhpArray {
  const fields: [string, Value][] = [
    ['member_id', m.memberId],
    ['name1', m.name1],
    ['name2', m.name2],
    ['nickname', m.nickname],
  ];
  if (withPrivate) fields.push(['email', m.email], ['login_id', m.loginId]);
  fields.push(['open_flg', m.open ? 1 : 0], ['inst_ymdhi', m.created], ['update_ymdhi', m.updated]);
  return PhpArray.fromEntries(fields);
}
