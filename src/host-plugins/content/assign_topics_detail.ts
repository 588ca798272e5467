/** {assign_topics_detail}: one content of the render's tenant, open now unless chk_open_flg=false. */
import { implement } from '../plugin-contract.js';
import { contentAdapter } from './common.js';
import { langAttr } from '../data-attrs.js';
import { topicDetail } from './topics-query.js';
import declaration from '../../plugins/host-content/assign_topics_detail.js';

export const assignTopicsDetail = implement(declaration, async (attrs, call) => {
  const content = contentAdapter(call, 'assign_topics_detail');
  const lang = langAttr('assign_topics_detail', attrs.lang, call);
  const topic = await topicDetail(content, Number(attrs.topics_id), attrs.chk_open_flg !== false, {
    lang,
    render: call.render,
  });
  return { assign: [[String(attrs.var), topic]] };
});
