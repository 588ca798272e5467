/**
 * {assign_new_comment_list}: the newest `cnt` open comments of an item; new_order_flg=false
 * shows the same comments oldest first (it does not pick the oldest ones; docs/decisions.md D58).
 */
import { implement } from '../plugin-contract.js';
import { PhpArray } from '../../value/value.js';
import declaration from '../../plugins/host-community/assign_new_comment_list.js';

export const assignNewCommentList = implement(declaration, async (attrs, call, comments) => {
  const moduleId = typeof attrs.module_id === 'number' ? attrs.module_id : null;
  const newest = await comments.newest({
    moduleType: String(attrs.module_type),
    moduleId,
    limit: Number(attrs.cnt),
  });
  const items = newest.slice(0, Number(attrs.cnt)).map((c) =>
    PhpArray.fromEntries([
      ['comment_id', c.commentId],
      ['module_type', c.moduleType],
      ['module_id', c.moduleId],
      ['member_id', c.memberId],
      ['name', c.name],
      ['note', c.note],
      ['inst_ymdhi', c.created],
    ]),
  );
  if (attrs.new_order_flg === false) items.reverse();
  return { assign: [[String(attrs.var), PhpArray.fromList(items)]] };
});
