/** The items the tags plugins assign, built from the adapter's records in one language. */
import { PhpArray } from '../../value/value.js';
import type { TagCategoryRecord, TagRecord } from '../../host-api/adapters/tags.js';
import type { BridgeCall } from '../plugin-contract.js';
import { inLang } from '../data-attrs.js';

export function tagItem(t: TagRecord, lang: string, call: BridgeCall): PhpArray {
  return PhpArray.fromEntries([
    ['tag_id', t.tagId],
    ['tag_nm', inLang(t.names, lang, call.render.lang) ?? ''],
    ['tag_category_id', t.categoryId],
    ['open_contents_cnt', t.openContentsCount],
    ['order_no', t.order],
    ['inst_ymdhi', t.created],
  ]);
}

/** A related tag: the spec's tag item (an `id`) with its name and its category's. */
export function relatedTagItem(
  t: TagRecord,
  category: TagCategoryRecord | undefined,
  lang: string,
  call: BridgeCall,
): PhpArray {
  return PhpArray.fromEntries([
    ['id', t.tagId],
    ['tag_nm', inLang(t.names, lang, call.render.lang) ?? ''],
    ['tag_category_id', t.categoryId],
    ['tag_category_nm', category ? (inLang(category.names, lang, call.render.lang) ?? '') : ''],
  ]);
}
