/** {assign_topics_category_list}: the published categories of a content group of the render's tenant. A read (D268). */
import { implementRead } from '../read-plugin.js';
import { langAttr } from '../data-attrs.js';
import { categoryList } from './topics-query.js';
import declaration from '../../plugins/host-content/assign_topics_category_list.js';

export const assignTopicsCategoryList = implementRead(declaration, function* (attrs, call, content) {
  const lang = langAttr('assign_topics_category_list', attrs.lang, call);
  const list = yield* categoryList(content, Number(attrs.topics_group_id), {
    lang,
    render: call.render,
  });
  return { assign: [[String(attrs.var), list]] };
});
