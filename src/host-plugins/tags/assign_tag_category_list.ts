/** {assign_tag_category_list}: the tenant's tag categories, flat in tree order or nested (category-tree.ts). */
import { implement } from '../plugin-contract.js';
import { langAttr } from '../data-attrs.js';
import { categoryList } from './category-tree.js';
import declaration from '../../plugins/host-tags/assign_tag_category_list.js';

export const assignTagCategoryList = implement(declaration, async (attrs, call, tags) => {
  const lang = langAttr('assign_tag_category_list', attrs.lang, call);
  const records = await tags.categories();
  return { assign: [[String(attrs.var), categoryList(records, lang, call, attrs.tree_flg === true)]] };
});
