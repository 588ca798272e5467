/**
 * {assign_relation_tag_list}: the tags an item carries, or those a given tag_relation_list names,
 * resolved against the tenant's tags (others left out), in order, narrowed to one category. A read (D271).
 */
import { implementRead } from '../read-plugin.js';
import { wait } from '../../host-api/now-or-later.js';
import { PhpArray, type Value } from '../../value/value.js';
import { BridgeError } from '../../host-api/errors.js';
import { relatedTagItem } from './items.js';
import { positiveId } from '../data-attrs.js';
import declaration from '../../plugins/host-tags/assign_relation_tag_list.js';

const MAX_ITEMS = 1000;

export const assignRelationTagList = implementRead(declaration, function* (attrs, call, tags) {
  const given = attrs.tag_relation_list;
  const ids = [
    ...new Set(
      given instanceof PhpArray
        ? idsOf(given)
        : yield* wait(tags.related(String(attrs.module), Number(attrs.module_id))),
    ),
  ];
  const records = new Map((yield* wait(tags.tags(ids))).map((t) => [t.tagId, t]));
  const categories = new Map((yield* wait(tags.categories())).map((c) => [c.categoryId, c]));
  const only = typeof attrs.tag_category_id === 'number' ? attrs.tag_category_id : null;
  const items: PhpArray[] = [];
  for (const id of ids) {
    const t = records.get(id);
    if (!t || (only !== null && t.categoryId !== only)) continue;
    items.push(relatedTagItem(t, categories.get(t.categoryId), call.render.lang, call));
  }
  return { assign: [[String(attrs.var), PhpArray.fromList(items)]] };
});

/** The ids of a tag_relation_list: arrays each with an integer `id` from 1, at most MAX_ITEMS. */
function idsOf(list: PhpArray): number[] {
  const bad = (): never => {
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{assign_relation_tag_list} tag_relation_list= must be a list of at most ${MAX_ITEMS} arrays, each with an integer id`,
    );
  };
  const items = list.values();
  if (items.length > MAX_ITEMS) bad();
  return items.map((item: Value) => (item instanceof PhpArray ? positiveId(item.get('id')) : null) ?? bad());
}
