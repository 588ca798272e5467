/** {assign_topics_detail}: one content of the render's tenant, open now unless chk_open_flg=false. A read (D268). */
import { implementRead } from '../read-plugin.js';
import { langAttr } from '../data-attrs.js';
import { topicDetail } from './topics-query.js';
import declaration from '../../plugins/host-content/assign_topics_detail.js';

export const assignTopicsDetail = implementRead(declaration, function* (attrs, call, content) {
  const lang = langAttr('assign_topics_detail', attrs.lang, call);
  const topic = yield* topicDetail(content, Number(attrs.topics_id), attrs.chk_open_flg !== false, {
    lang,
    render: call.render,
  });
  return { assign: [[String(attrs.var), topic]] };
});
