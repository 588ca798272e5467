/**
 * `node --no-node-snapshot --import tsx bench/serve/breakdown.ts SITE_DIR [--workers N] [--n N]`:
 * where the CPU of one `news` request of `serve` goes, measured in one process without HTTP
 * (bench/README.md, "Serve"): the SQL the content adapter runs, the host call that shapes its
 * rows, the whole endpoint (the render with its host call), the same for `me` (the render floor),
 * and the API layer around it (serveApi: cookies, session, request state, $smarty.server).
 * CPU µs per call, each step after a warm-up, median of 5 rounds.
 */
import { openBenchSite, time } from './site-timer.js';
import { serveApi } from '../../src/site/api/serve-api.js';
import { runEndpoint } from '../../src/site/api/run-endpoint.js';
import { findEndpoint } from '../../src/site/api/endpoints.js';

const { site, registry } = await openBenchSite();

const db = site.db;
const tenant = site.config.site_key;
const ids = (
  await db.all<{ id: number }>(
    'SELECT id FROM topics WHERE tenant = ? AND group_id = 1 AND open_flg = 1 ORDER BY ymd DESC, id DESC LIMIT 10',
    [tenant],
  )
).map((r) => r.id);
const inList = ids.map(() => '?').join(', ');
await time('SQL: the 8 queries of news (prepared, rows only)', async () => {
  await db.get('SELECT id, names, descriptions FROM topics_groups WHERE tenant = ? AND id = ?', [tenant, 1]);
  await db.all(
    'SELECT id, group_id, open_flg, open_from, open_until, ymd, category_id FROM topics WHERE tenant = ? AND group_id = ?',
    [tenant, 1],
  );
  await db.all(
    `SELECT id, group_id, open_flg, open_from, open_until, ymd, category_id, slug, order_no, inst_at, update_at FROM topics WHERE tenant = ? AND id IN (${inList})`,
    [tenant, ...ids],
  );
  for (const table of ['topic_texts', 'topic_ext_values', 'topic_counters'])
    await db.all(`SELECT * FROM ${table} WHERE tenant = ? AND topic_id IN (${inList})`, [tenant, ...ids]);
  await db.all(
    'SELECT id, group_id, slug, type, repeat_cnt, order_no FROM topics_ext_columns WHERE tenant = ? AND group_id = ? ORDER BY order_no, id',
    [tenant, 1],
  );
  await db.all(
    'SELECT id, group_id, parent_id, slug, names, order_no, open_flg FROM topics_categories WHERE tenant = ? AND group_id = ? ORDER BY order_no, id',
    [tenant, 1],
  );
});
for (const name of ['floor', 'me', 'news']) {
  const endpoint = findEndpoint(site.config, `/rcms-api/1/${name}`);
  // `floor` is bench/serve.ts's own endpoint; a site made by `site init` has only `me` and `news`.
  if (endpoint === null) {
    console.log(`${name}: skipped, the site has no endpoint of that name (bench/serve.ts adds \`floor\` to its site)`);
    continue;
  }
  let n = 0;
  await time(`runEndpoint ${name} (render + host calls + JSON)`, async () => {
    const requestId = `b-${n++}`;
    site.requests.begin(requestId);
    try {
      await runEndpoint(site, endpoint, { requestId, memberId: null, depth: 0, get: {}, post: {}, server: {} });
    } finally {
      site.requests.end(requestId);
    }
  });
  await time(`serveApi ${name} (the API layer around it)`, () =>
    serveApi(site, {
      method: 'GET',
      path: `/rcms-api/1/${name}`,
      query: '',
      headers: new Map([
        ['host', '127.0.0.1:8080'],
        ['user-agent', 'bench'],
        ['accept', '*/*'],
      ]),
      body: new Uint8Array(),
      basePath: '/',
      remoteAddress: '127.0.0.1',
    }),
  );
}
await registry.close();
