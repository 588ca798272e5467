/** {assign_group_nm}: a member group's name in a language; null for a group the tenant does not have. */
import type { HostPlugin } from '../../plugin-contract.js';
import { adapterWith } from '../../capabilities.js';
import { langOf, nameIn } from '../lang.js';

export const assignGroupNm: HostPlugin = {
  name: 'assign_group_nm',
  async run(attrs, call) {
    const members = adapterWith(call.host, 'members', '{assign_group_nm}', ['groups']);
    const lang = langOf(attrs, call, 'assign_group_nm');
    const [group] = await members.groups(call.identity.tenant, [Number(attrs.group_id)]);
    return { assign: [[String(attrs.var), group && group.groupId === attrs.group_id ? nameIn(group.names, lang, call) : null]] };
  },
};
