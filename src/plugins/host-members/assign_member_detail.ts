import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'assign_member_detail',
  host: 'members.member',
  summary:
    "Reads one member of the site into `var`: member_id, name1, name2, nickname, open_flg, inst_ymdhi, update_ymdhi; email and login_id only when the render is that member's own or a super user's; never a password or token. " +
    "With `open_by_group` (the default) the member is shown only if the render's member may view them: their own record, a super user, or an open profile in a group whose viewing permission names one of the viewer's groups. " +
    'A member who is missing or may not be viewed gives an empty array (the same answer, so existence does not leak).',
  attrs: {
    var: { type: 'varname', required: true },
    member_id: {
      type: 'int',
      required: true,
      min: 1,
      doc: 'The member to read. It names whom to read, not whom to act as, so a variable is allowed; the viewing permission decides.',
    },
    open_by_group: {
      type: 'bool',
      default: true,
      doc: 'false ignores the viewing permission (email and login_id stay hidden from others).',
    },
    open_flg: {
      type: 'int',
      min: -1,
      max: 1,
      doc: 'Deprecated: -1 limits to viewable members even with open_by_group=false; 0 and 1 change nothing. Logs a warning.',
    },
    assign_group_flg: {
      type: 'bool',
      default: false,
      doc: "Adds group_ids (ascending) and groups (each group_id and group_nm in the site's language).",
    },
  },
  examples: [
    {
      template: '{assign_member_detail member_id=3 var=m}{$m.nickname}: {$m.name1} {$m.name2}',
      memberId: 2,
      output: 'いちろう: 鈴木 一郎',
    },
    {
      template: '{assign_member_detail member_id=5 var=m}{if $m}shown{else}not viewable{/if}',
      memberId: 2,
      output: 'not viewable',
    },
    {
      template: '{assign_member_detail member_id=2 var=me assign_group_flg=true}{$me.email} ({$me.groups.0.group_nm})',
      memberId: 2,
      output: 'hanako.sato@example.com (一般会員)',
    },
  ],
});
