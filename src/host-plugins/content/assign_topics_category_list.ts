/** {assign_topics_category_list}: the published categories of a content group of the render's tenant. */
import { implement } from '../plugin-contract.js';
import { contentAdapter } from './common.js';
import { langAttr } from '../data-attrs.js';
import { categoryList } from './topics-query.js';
import declaration from '../../plugins/host-content/assign_topics_category_list.js';

export const assignTopicsCategoryList = implement(declaration, async (attrs, call) => {
  const content = contentAdapter(call, 'assign_topics_category_list');
  const lang = langAttr('assign_topics_category_list', attrs.lang, call);
  const list = await categoryList(content, Number(attrs.topics_group_id), {
    lang,
    render: call.render,
  });
  return { assign: [[String(attrs.var), list]] };
});
