/**
 * `node --no-node-snapshot --import tsx bench/serve/news-parts.ts SITE_DIR [--n N]`: the parts of
 * the `news` endpoint's render in one process (bench/README.md, "Where a `news` request's CPU
 * goes"): the host's answer of `{api_method model="Topics" method="list"}` built from the content
 * adapter (its SQL and the row shaping), that answer encoded for the isolate and written as JSON,
 * and renders of the function with and without its `{return}`. CPU µs per call, median of 5 rounds.
 */
import { openBenchSite, time } from './site-timer.js';
import { runEndpoint } from '../../src/site/api/run-endpoint.js';
import { findEndpoint } from '../../src/site/api/endpoints.js';
import { contentAdapters } from '../../src/site/adapters/content.js';
import { topicList as topicSteps } from '../../src/host-plugins/content/topics-query.js';
import { runLater } from '../../src/host-api/now-or-later.js';
import { encodeAnswer } from '../../src/protocol/transfer.js';
import { siteIdentity } from '../../src/site/identity.js';
import { siteAdapters } from '../../src/site/adapters/index.js';
import { createBridge } from '../../src/bridge/bridge.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { renderChannel, type RenderEvent } from '../../src/diagnostics.js';

const { site, registry } = await openBenchSite();

const content = contentAdapters(site).content!;
const render = { now: Math.floor(Date.now() / 1000), timezone: 'Asia/Tokyo', lang: 'ja' };
const read = { lang: 'ja', render };
const query = { groupId: 1, perPage: 10, page: 1, categoryId: null };
const topicList = (c: typeof content, q: typeof query, o: typeof read) => runLater(topicSteps(c, q, o));
await time('host: topicList (adapter reads + row shaping)', () => topicList(content, query, read));
// The same reads answered from memory: what the shaping alone costs.
const memo = new Map<string, unknown>();
const cached = new Proxy(content, {
  get(target, prop) {
    const f = (target as unknown as Record<string | symbol, unknown>)[prop];
    if (typeof f !== 'function') return f;
    return async (...args: unknown[]) => {
      const key = `${String(prop)}:${JSON.stringify(args)}`;
      if (!memo.has(key)) memo.set(key, await (f as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      return memo.get(key);
    };
  },
});
await time('host: topicList on reads kept in memory (the shaping)', () => topicList(cached, query, read));
const { list } = await topicList(content, query, read);
await time('host: the answer encoded and written as JSON', () => JSON.stringify(encodeAnswer(list)));
console.log(`  answer: ${JSON.stringify(encodeAnswer(list)).length} characters of JSON`);

const engine = site.engines.at(0);
const identity = siteIdentity(site.config, { memberId: null, requestId: 'parts' });
const templates: [string, string][] = [
  ['render: {return} of an empty array (the floor)', '{return value=$dataSet.emptyArray}'],
  [
    'render: {api_method} only, no {return}',
    '{assign_array var=group values="1" keys="topics_group_id"}{api_method var=news model="Topics" method="list" method_params=$group request_params=$smarty.get}',
  ],
  [
    'render: news.tpl ({api_method} and {return})',
    '{assign_array var=group values="1" keys="topics_group_id"}{api_method var=news model="Topics" method="list" method_params=$group request_params=$smarty.get}{return value=$news}',
  ],
];
// The isolate's own CPU of each render (RenderEvent.cpuMs, what the access log shows).
let isolateMs: number[] = [];
renderChannel.asyncEnd.subscribe((message) => {
  const e = message as RenderEvent;
  if (typeof e.cpuMs === 'number') isolateMs.push(e.cpuMs);
});
for (const [name, source] of templates) {
  isolateMs = [];
  await time(name, () =>
    engine.render(source, { name: 'parts.tpl', identity, request: { get: {}, server: {} }, returnJson: true }),
  );
  isolateMs.sort((a, b) => a - b);
  console.log(`  of which in the isolate: ${(isolateMs[isolateMs.length >> 1]! * 1000).toFixed(0)} µs (median)`);
}
// The host's side of the call as the isolate makes it: the bridge's checks, topicList, the answer's JSON.
const call = JSON.stringify({
  name: 'api_method',
  attrs: {
    var: 'news',
    model: 'Topics',
    method: 'list',
    request_params: { a: [] },
    method_params: { a: [['topics_group_id', '1']] },
  },
});
const host = siteAdapters(site);
await time('host: the bridge handler of that call', async () => {
  const b = createBridge(host, identity, DEFAULT_LIMITS, { literals: {} }, render);
  await b.handler('tag', call);
  b.end();
});
const endpoint = findEndpoint(site.config, '/rcms-api/1/news')!;
let n = 0;
await time('runEndpoint news', async () => {
  const requestId = `p-${n++}`;
  site.requests.begin(requestId);
  try {
    await runEndpoint(site, endpoint, { requestId, memberId: null, depth: 0, get: {}, post: {}, server: {} });
  } finally {
    site.requests.end(requestId);
  }
});
await registry.close();
