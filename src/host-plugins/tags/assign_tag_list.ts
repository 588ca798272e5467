/** {assign_tag_list}: the tags of one category, sorted here by the whitelisted keys of `order` (order.ts). */
import { implement } from '../plugin-contract.js';
import { PhpArray } from '../../value/value.js';
import { comparator, parseOrder } from './order.js';
import { tagItem } from './items.js';
import declaration from '../../plugins/host-tags/assign_tag_list.js';

export const assignTagList = implement(declaration, async (attrs, call, tags) => {
  const keys = parseOrder(attrs.order);
  const categoryId = Number(attrs.category_id);
  const records = await tags.tagsOf(categoryId);
  const items = records.filter((t) => t.categoryId === categoryId).map((t) => tagItem(t, call.render.lang, call));
  items.sort(comparator(keys.length > 0 ? keys : [{ column: 'order_no', descending: false }]));
  return { assign: [[String(attrs.var), PhpArray.fromList(items)]] };
});
