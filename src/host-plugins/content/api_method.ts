/**
 * {api_method}: a GET-type model operation of the content API, answered from the content adapter
 * in the API's response shape (errors, messages, then list/pageInfo or details). Only open
 * contents and published categories are answered, as the public API does. A POST-type operation
 * is an error of the template; an unknown model or operation is a response with `errors`, as the
 * platform answers it. A read: on an adapter with a now face it also answers a render in the
 * synchronous slice at once (D268).
 */
import type { BridgeCall } from '../plugin-contract.js';
import { implementRead } from '../read-plugin.js';
import type { ContentReads } from '../../host-api/adapters/content.js';
import type { Steps } from '../../host-api/now-or-later.js';
import { BridgeError } from '../../host-api/errors.js';
import { PhpArray, type Value } from '../../value/value.js';
import { pageInfo } from '../../plugins/array/pager.js';
import { param } from './common.js';
import { langAttr, positiveId } from '../data-attrs.js';
import { categoryList, topicDetail, topicList, type ReadOptions } from './topics-query.js';
import declaration from '../../plugins/host-content/api_method.js';

const DEFAULT_CNT = 10;
const MAX_CNT = 100;
/** Operations that write: the platform refuses them here, whatever the model. */
const POST_TYPE = /^(insert|update|delete|upsert|bulk_\w+|create|edit|remove|post|put|patch|purge|send|import)$/i;

interface Request {
  content: ContentReads;
  requestParams: Value;
  methodParams: Value;
  read: ReadOptions;
}
type Operation = (r: Request) => Steps<PhpArray>;

function response(body: [string, Value][], errors: PhpArray = PhpArray.empty()): PhpArray {
  return PhpArray.fromEntries([['errors', errors], ['messages', PhpArray.empty()], ...body]);
}

function failed(code: string, message: string, body: [string, Value][] = []): PhpArray {
  return response(
    body,
    PhpArray.fromList([
      PhpArray.fromEntries([
        ['code', code],
        ['message', message],
      ]),
    ]),
  );
}

/** An ID of method_params, else of request_params. */
const idParam = (r: Request, key: string): number | null =>
  positiveId(param(r.methodParams, key)) ?? positiveId(param(r.requestParams, key));

const OPERATIONS: Readonly<Record<string, Readonly<Record<string, Operation>>>> = {
  topics: {
    *list(r) {
      const groupId = idParam(r, 'topics_group_id');
      if (groupId === null) return failed('missing_parameter', 'Topics::list needs method_params.topics_group_id');
      const cnt = Math.min(
        MAX_CNT,
        positiveId(param(r.requestParams, 'cnt')) ?? positiveId(param(r.methodParams, 'cnt')) ?? DEFAULT_CNT,
      );
      const page = positiveId(param(r.requestParams, 'pageID')) ?? 1;
      const categoryId = positiveId(param(r.requestParams, 'contents_type'));
      const { list, window } = yield* topicList(r.content, { groupId, perPage: cnt, page, categoryId }, r.read);
      return response([
        ['list', list],
        ['pageInfo', pageInfo(window)],
      ]);
    },
    *details(r) {
      const id = idParam(r, 'topics_id');
      if (id === null) return failed('missing_parameter', 'Topics::details needs method_params.topics_id');
      const details = yield* topicDetail(r.content, id, true, r.read);
      const groupId = positiveId(param(r.methodParams, 'topics_group_id'));
      if (!details || (groupId !== null && details.get('topics_group_id') !== groupId)) {
        return failed('not_found', `content ${id} does not exist or is not open`, [['details', PhpArray.empty()]]);
      }
      return response([['details', details]]);
    },
  },
  topicscategory: {
    *list(r) {
      const groupId = idParam(r, 'topics_group_id');
      if (groupId === null)
        return failed('missing_parameter', 'TopicsCategory::list needs method_params.topics_group_id');
      return response([['list', yield* categoryList(r.content, groupId, r.read)]]);
    },
  },
};

function lang(call: BridgeCall, r: { requestParams: Value; methodParams: Value }): string {
  const asked = param(r.methodParams, 'lang') ?? param(r.requestParams, '_lang');
  return langAttr('api_method', asked, call);
}

export const apiMethod = implementRead(declaration, function* (attrs, call, content) {
  const name = String(attrs.var);
  if (attrs.version !== 1)
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{api_method} version=${String(attrs.version)}: only version 1 of the model operations exists`,
    );
  const model = typeof attrs.model === 'string' ? attrs.model : '';
  const method = typeof attrs.method === 'string' ? attrs.method : '';
  if (POST_TYPE.test(method)) {
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{api_method} runs GET-type operations only: ${model}::${method} writes (use an endpoint with {api_internal} for that)`,
    );
  }
  // Own keys only: a model such as `constructor` or `__proto__` must not reach Object's members.
  const models = Object.hasOwn(OPERATIONS, model.toLowerCase()) ? OPERATIONS[model.toLowerCase()] : undefined;
  const operation = models && Object.hasOwn(models, method) ? models[method] : undefined;
  if (!operation) {
    return {
      assign: [
        [
          name,
          failed(
            'unknown_method',
            `no GET-type operation ${model}::${method} (known: Topics::list, Topics::details, TopicsCategory::list)`,
          ),
        ],
      ],
    };
  }
  const params = { requestParams: attrs.request_params ?? null, methodParams: attrs.method_params ?? null };
  const read = { lang: lang(call, params), render: call.render };
  return { assign: [[name, yield* operation({ content, ...params, read })]] };
});
