/**
 * The unsandboxed limit of the serve row: a plain node:http server answering the sample site's
 * `news` endpoint with the same SQLite data (node:sqlite, prepared statements: the topics of
 * group 1 that are open, newest first, 10, with their texts, group, category and extended values)
 * and the page made by an Eta template, no sandbox, no isolate. It does less than smartcage's
 * {api_method} (no tags, no permissions, no counters): a lower bound of the work, so the ratio
 * against it is conservative. Also `me`, the anonymous session's answer. Run as its own process: `node bench/serve/plain.ts SITE_DIR`, prints
 * its URL. `news-archive` is the same page of group 3 (bench/serve.ts adds it: 20,000 contents).
 */
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
const { Eta } = require('eta') as typeof import('eta');

const dir = process.argv[2]!;
const tenant = (JSON.parse(readFileSync(path.join(dir, 'site.json'), 'utf8')) as { site_key: string }).site_key;
const db = new DatabaseSync(path.join(dir, 'data', 'site.sqlite'), { readOnly: true });
const list =
  db.prepare(`SELECT t.id, t.ymd, t.category_id, t.slug, t.order_no, t.open_flg, t.inst_at, t.update_at, x.subject, x.contents, g.names AS group_names, g.descriptions AS group_descriptions, c.names AS category_names, c.slug AS category_slug
  FROM topics t JOIN topic_texts x ON x.tenant = t.tenant AND x.topic_id = t.id AND x.lang = 'ja'
  JOIN topics_groups g ON g.tenant = t.tenant AND g.id = t.group_id
  LEFT JOIN topics_categories c ON c.tenant = t.tenant AND c.id = t.category_id
  WHERE t.tenant = ? AND t.group_id = ? AND t.open_flg = 1 ORDER BY t.ymd DESC, t.id DESC LIMIT 10`);
const ext = db.prepare(
  'SELECT topic_id, column_id, idx, value FROM topic_ext_values WHERE tenant = ? AND topic_id IN (SELECT value FROM json_each(?))',
);
const total = db.prepare('SELECT count(*) AS n FROM topics WHERE tenant = ? AND group_id = ? AND open_flg = 1');

const eta = new Eta({ autoEscape: false, useWith: false });
const page = eta.compile(
  `{"errors":[],"messages":[],"list":[<% it.rows.forEach((t, i) => { %><%= i ? ',' : '' %>{"topics_id":<%= t.id %>,"ymd":<%= JSON.stringify(t.ymd) %>,"contents_type":<%= t.category_id ?? 'null' %>,"subject":<%= JSON.stringify(t.subject) %>,"open_flg":<%= t.open_flg %>,"inst_ymdhi":<%= JSON.stringify(t.inst_at) %>,"update_ymdhi":<%= JSON.stringify(t.update_at) %>,"topics_group_id":<%= it.group %>,"slug":<%= JSON.stringify(t.slug) %>,"order_no":<%= t.order_no %>,"group_nm":<%= JSON.stringify(JSON.parse(t.group_names).ja ?? '') %>,"contents_type_slug":<%= JSON.stringify(t.category_slug) %>,"contents":<%= JSON.stringify(t.contents) %><% for (const e of it.ext.get(t.id) ?? []) { %>,"ext_<%= e.column_id %>_<%= e.idx %>":<%= JSON.stringify(e.value) %><% } %>}<% }) %>],"pageInfo":{"totalCnt":<%= it.total %>,"perPage":10,"pageNo":1}}`,
);

const server = createServer((req, res) => {
  const at = req.url?.split('?')[0];
  // `me`: the session of an anonymous request, as smartcage answers it (an empty PHP array);
  // `floor`: a function that returns an empty array (bench/serve.ts).
  if (at === '/rcms-api/1/me' || at === '/rcms-api/1/floor') {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end('[]');
    return;
  }
  // `news-archive`: the same page of group 3, the archive bench/serve.ts adds (20,000 contents).
  const group = at === '/rcms-api/1/news' ? 1 : at === '/rcms-api/1/news-archive' ? 3 : null;
  if (group === null) {
    res.writeHead(404).end();
    return;
  }
  const rows = list.all(tenant, group) as { id: number }[];
  const byTopic = new Map<number, unknown[]>();
  for (const e of ext.all(tenant, JSON.stringify(rows.map((r) => r.id))) as { topic_id: number }[]) {
    const l = byTopic.get(e.topic_id) ?? [];
    l.push(e);
    byTopic.set(e.topic_id, l);
  }
  const body = page.call(eta, { rows, ext: byTopic, group, total: (total.get(tenant, group) as { n: number }).n });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const a = server.address() as { port: number };
  process.stdout.write(`http://127.0.0.1:${a.port}/\n`);
});
