/**
 * Tag categories in tree order: a parent, then its children by order_no and id, depth first. A
 * category whose parent the tenant does not have counts as top-level; one in a cycle of parents
 * is reachable from no top-level category and is not listed; levels below MAX_LEVELS are cut.
 */
import { PhpArray } from '../../value/value.js';
import type { TagCategoryRecord } from '../../host-api/adapters/tags.js';
import type { BridgeCall } from '../plugin-contract.js';
import { inLang } from '../data-attrs.js';

const MAX_LEVELS = 16;

export function categoryList(
  records: readonly TagCategoryRecord[],
  lang: string,
  call: BridgeCall,
  nested: boolean,
): PhpArray {
  const ids = new Set(records.map((r) => r.categoryId));
  const isTop = (r: TagCategoryRecord): boolean => r.parentId === null || !ids.has(r.parentId);
  const children = new Map<number, TagCategoryRecord[]>();
  for (const r of records) {
    if (isTop(r)) continue;
    const list = children.get(r.parentId!);
    if (list) list.push(r);
    else children.set(r.parentId!, [r]);
  }
  const byOrder = (a: TagCategoryRecord, b: TagCategoryRecord): number =>
    a.order - b.order || a.categoryId - b.categoryId;
  const flat: PhpArray[] = [];

  const visit = (r: TagCategoryRecord, level: number): PhpArray => {
    const item = PhpArray.fromEntries([
      ['tag_category_id', r.categoryId],
      ['tag_category_nm', inLang(r.names, lang, call.render.lang) ?? ''],
      ['parent_tag_category_id', isTop(r) ? null : r.parentId],
      ['order_no', r.order],
      ['level', level],
    ]);
    if (!nested) flat.push(item);
    const kids =
      level + 1 < MAX_LEVELS
        ? [...(children.get(r.categoryId) ?? [])].sort(byOrder).map((c) => visit(c, level + 1))
        : [];
    if (nested) item.set('children', PhpArray.fromList(kids));
    return item;
  };

  const top = records
    .filter(isTop)
    .sort(byOrder)
    .map((r) => visit(r, 0));
  return PhpArray.fromList(nested ? top : flat);
}
