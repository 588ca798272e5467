import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'api_method',
  host: 'content',
  summary:
    'Runs a GET-type model operation without an endpoint and assigns its response as the content API gives it: Topics::list (request_params cnt, default 10, at most 100; pageID; contents_type; method_params topics_group_id) with `list` and `pageInfo` as assign_pager makes it, ' +
    'Topics::details (method_params topics_id) with `details`, and TopicsCategory::list (method_params topics_group_id). Only open contents and published categories are answered. ' +
    'A POST-type operation (insert, update, delete...) is refused with E_BAD_ATTRIBUTE; an unknown model or operation gives a response whose `errors` says so.',
  attrs: {
    var: { type: 'varname', required: true },
    model: { type: 'string', maxLength: 100, doc: 'Topics or TopicsCategory.' },
    method: { type: 'string', maxLength: 100, doc: 'list or details.' },
    version: { type: 'int', default: 1, doc: 'Version of the operation: only 1 exists.' },
    request_params: { type: 'array', doc: 'Request variables: cnt, pageID, contents_type.' },
    method_params: { type: 'array', doc: 'Endpoint settings: topics_group_id, topics_id, lang.' },
  },
  examples: [
    {
      template:
        '{api_method var=r model="Topics" method="list" request_params=$p method_params=$m}{$r.pageInfo.totalCnt} contents, newest: {$r.list.0.subject}',
      vars: { p: { cnt: 3 }, m: { topics_group_id: 1, lang: 'en' } },
      output: '25 contents, newest: Release notes for November',
    },
    {
      template: '{api_method var=r model="Topics" method="details" method_params=$m}{$r.details.subject}',
      vars: { m: { topics_id: 3 } },
      output: '東京で開発者ミートアップを開催します',
    },
  ],
});
