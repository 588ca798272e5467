/** {assign_topics_category_list}: the published categories of a content group of the render's tenant. */
import type { HostPlugin } from '../../plugin-contract.js';
import { contentAdapter } from './common.js';
import { langAttr } from '../data-attrs.js';
import { categoryList } from './topics-query.js';

export const assignTopicsCategoryList: HostPlugin = {
  name: 'assign_topics_category_list',
  async run(attrs, call) {
    const content = contentAdapter(call, 'assign_topics_category_list');
    const lang = langAttr('assign_topics_category_list', attrs.lang, call);
    const list = await categoryList(content, Number(attrs.topics_group_id), { tenant: call.identity.tenant, lang, render: call.render });
    return { assign: [[String(attrs.var), list]] };
  },
};
