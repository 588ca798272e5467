/** {assign_tag_category_list}: the tenant's tag categories, flat in tree order or nested (category-tree.ts). A read (D271). */
import { implementRead } from '../read-plugin.js';
import { wait } from '../../host-api/now-or-later.js';
import { langAttr } from '../data-attrs.js';
import { categoryList } from './category-tree.js';
import declaration from '../../plugins/host-tags/assign_tag_category_list.js';

export const assignTagCategoryList = implementRead(declaration, function* (attrs, call, tags) {
  const lang = langAttr('assign_tag_category_list', attrs.lang, call);
  const records = yield* wait(tags.categories());
  return { assign: [[String(attrs.var), categoryList(records, lang, call, attrs.tree_flg === true)]] };
});
