/** {assign_tag_list}: the tags of one category, sorted here by the whitelisted keys of `order` (order.ts). A read (D271). */
import { implementRead } from '../read-plugin.js';
import { wait } from '../../host-api/now-or-later.js';
import { PhpArray } from '../../value/value.js';
import { comparator, parseOrder } from './order.js';
import { tagItem } from './items.js';
import declaration from '../../plugins/host-tags/assign_tag_list.js';

export const assignTagList = implementRead(declaration, function* (attrs, call, tags) {
  const keys = parseOrder(attrs.order);
  const categoryId = Number(attrs.category_id);
  const records = yield* wait(tags.tagsOf(categoryId));
  const items = records.filter((t) => t.categoryId === categoryId).map((t) => tagItem(t, call.render.lang, call));
  items.sort(comparator(keys.length > 0 ? keys : [{ column: 'order_no', descending: false }]));
  return { assign: [[String(attrs.var), PhpArray.fromList(items)]] };
});
