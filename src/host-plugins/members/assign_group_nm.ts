/** {assign_group_nm}: a member group's name in a language; null for a group the tenant does not have. */
import { implement } from '../plugin-contract.js';
import { inLang, langAttr } from '../data-attrs.js';
import declaration from '../../plugins/host-members/assign_group_nm.js';

export const assignGroupNm = implement(declaration, async (attrs, call, members) => {
  const lang = langAttr('assign_group_nm', attrs.lang, call);
  const [group] = await members.groups([Number(attrs.group_id)]);
  const name = group && group.groupId === attrs.group_id ? (inLang(group.names, lang, call.render.lang) ?? '') : null;
  return { assign: [[String(attrs.var), name]] };
});
