/**
 * `npm run bench:serve -- [memory N,N...] [thousand] [rps] [flood]`: the serve-level rows of
 * issue 31, against real `smartcage serve --sites` processes (bench/README.md, "Serve").
 *
 * - memory N,...: RSS of the whole process tree with N sites, each used once (GET its
 *   /rcms-api/1/news), right after and once idle (`--idle S`, default 15 s);
 * - thousand: 1,000 sites of which 50 are hot (each of the 50 used again and again), RSS of the tree;
 *   each site's requests on its own keep-alive connections, as its own clients (or a proxy that
 *   keeps connections per host) would send them; `--shared-connections`: one pool over all sites;
 *   `--new-connections`: a new connection per request (many clients per site);
 * - rps: requests per second per core of the sample site's `news` and `me` endpoints through serve,
 *   beside a plain node:http server with Eta running the same SQLite query and page
 *   (bench/serve/plain.ts), and each one's CPU per request against the plain server's; also
 *   `floor`, a function that only returns an empty array: what any request through serve costs;
 *   and `news-cached`, `news` behind the API cache (a repeated read: every request after the
 *   first is a hit), against the plain server's `news`; and `news-archive`, `news` over a group of
 *   20,000 contents (a site's archive), against the plain server's same page of that group.
 *   `--variants "NAME=ARGS;NAME=ARGS"` runs several servers (serve options each) in the same
 *   alternating rounds, for an A/B in one run; `--bin PATH` in a variant's options runs another
 *   build's bin/smartcage.js (a copy of bin/, dist/ and package.json beside a node_modules link);
 *   `--site DIR` serves that site folder (one on PostgreSQL) instead of the SQLite bench site;
 *   `--sites`: serve the site with `--sites` (two sites, their requests in turn, each on its own
 *   connections) for the site affinity of `--processes N` (D226); `--new-connections`: a new
 *   connection per request; `--shared-connections`: one pool of connections both sites share (D238). Also prints the CPU per request of the server's first process alone
 *   (with --processes N: the primary);
 * - flood: one tenant floods with slow requests while another's are timed (p50/p99).
 *
 * Sites are made under test-artifacts/serve-bench/ once and kept (bench/serve/sites.ts).
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { makeSites } from './serve/sites.js';
import { spawn } from 'node:child_process';
import { writeFileSync, readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { Agent, get as httpGet } from 'node:http';
import { NODE, ownCpuS, startServe, treeCpuS, treeRssMB } from './serve/processes.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORK = path.join(ROOT, 'test-artifacts', 'serve-bench');
const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const IDLE_S = opt('idle', 15);
const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function get(url: string): Promise<number> {
  const r = await fetch(url);
  await r.arrayBuffer();
  return r.status;
}

/** Keep-alive connections of one site's clients: one agent per site key. */
const agents = new Map<string, Agent>();
const siteOf = (url: string) => /\/sites\/([^/]+)\//.exec(url)?.[1] ?? '';

/**
 * GET on connections of the URL's site alone (its own agent), or with `fresh` on a new
 * connection each time: what `fetch` does not offer (its pool is per origin).
 */
function getOwn(url: string, fresh = false): Promise<number> {
  const key = siteOf(url);
  let agent = agents.get(key);
  if (!agent && !fresh) agents.set(key, (agent = new Agent({ keepAlive: true })));
  return new Promise((resolve, reject) => {
    httpGet(url, { agent: fresh ? false : agent, headers: fresh ? { connection: 'close' } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}
type Getter = (url: string) => Promise<number>;

/** Every site of `keys` asked once, `concurrency` at a time; the statuses that were not 200. */
async function useOnce(base: string, keys: readonly string[], concurrency = 4): Promise<number[]> {
  const bad: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < keys.length) {
        const key = keys[next++]!;
        const s = await get(`${base}/sites/${key}/rcms-api/1/news`);
        if (s !== 200) bad.push(s);
      }
    }),
  );
  return bad;
}

async function memory(counts: number[]): Promise<void> {
  for (const n of counts) {
    const dir = path.join(WORK, `sites-${n}`);
    const keys = makeSites(dir, n);
    const served = await startServe(['--sites', dir, ...serveArgs()]);
    try {
      const start = treeRssMB(served.proc.pid!);
      const bad = await useOnce(served.url, keys);
      const used = treeRssMB(served.proc.pid!);
      await sleep(IDLE_S * 1000);
      const idle = treeRssMB(served.proc.pid!);
      log(
        `memory: ${n} sites: start ${start.mb} MB, after each used once ${used.mb} MB, idle ${IDLE_S} s ${idle.mb} MB (${idle.processes} processes)${bad.length ? `; ${bad.length} requests failed (${bad[0]})` : ''}`,
      );
    } finally {
      await served.stop();
    }
  }
}

/** Extra serve options from `--serve-args "..."`. */
function serveArgs(): string[] {
  const i = argv.indexOf('--serve-args');
  return i >= 0 ? argv[i + 1]!.split(' ').filter(Boolean) : [];
}

/** Keeps `concurrency` requests to `urls` (taken in turn) in flight for `ms`; latencies in ms and statuses. */
async function load(
  urls: readonly string[],
  concurrency: number,
  ms: number,
  fetchOne: Getter = get,
): Promise<{ latencies: number[]; bad: number }> {
  const until = performance.now() + ms;
  const latencies: number[] = [];
  let bad = 0;
  let n = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        const s = await fetchOne(urls[n++ % urls.length]!);
        if (s === 200) latencies.push(performance.now() - t);
        else bad++;
      }
    }),
  );
  return { latencies, bad };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** 1,000 sites, 50 of them hot: RSS of the tree at start, with the 50 in use, after all of them went idle. */
async function thousand(): Promise<void> {
  const dir = path.join(WORK, 'sites-1000');
  const t0 = Date.now();
  const keys = makeSites(dir, 1000);
  log(`thousand: 1,000 sites ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const served = await startServe(['--sites', dir, ...serveArgs()]);
  try {
    const pid = served.proc.pid!;
    const start = treeRssMB(pid);
    const hot = keys.slice(0, 50).map((k) => `${served.url}/sites/${k}/rcms-api/1/news`);
    const shared = argv.includes('--shared-connections');
    const fresh = argv.includes('--new-connections');
    const r = await load(hot, 8, 10_000, shared ? get : (u) => getOwn(u, fresh));
    const warm = treeRssMB(pid);
    // Summed over the children by the one that answers (D343 places a group's sites in one).
    const metrics = await (await fetch(`${served.url}/metrics`)).text();
    const isolates = /^smartcage_isolates_warm (\d+)$/m.exec(metrics)?.[1] ?? '?';
    log(
      `thousand: 1,000 sites: start ${start.mb} MB; 50 hot (10 s of 8 requests in flight over them on ${shared ? 'connections shared by all sites' : fresh ? 'a new connection each' : "each site's own connections"}, ${r.latencies.length} requests, p50 ${pct(r.latencies, 50).toFixed(1)} ms, p99 ${pct(r.latencies, 99).toFixed(1)} ms${r.bad ? `, ${r.bad} not 200` : ''}): ${warm.mb} MB (${warm.processes} processes, ${isolates} isolates warm)`,
    );
  } finally {
    await served.stop();
  }
}

/**
 * CPU per request of each endpoint of the sample site (`news`, `me`) through serve (one site)
 * against the plain server, in alternating rounds of one run: `news` requests per CPU-second
 * (issue 31, goal >= 0.5x the plain server) and each endpoint's CPU per request against the plain
 * one (issue 35 goal 3: within 3x; `news` <= 1.5 ms).
 */
/** What both servers' answers must agree on: each topic's id, subject and contents, or the answer itself. */
function same(answer: unknown): unknown {
  const list = (answer as { list?: Record<string, unknown>[] }).list;
  return list ? list.map((t) => [t.topics_id, t.subject, t.contents]) : answer;
}

/** `--variants "a=--x 1;b=--x 2"`: named sets of serve options; else one, `serve`, with `--serve-args`. */
function variants(): { name: string; args: string[] }[] {
  const i = argv.indexOf('--variants');
  if (i < 0) return [{ name: 'serve', args: serveArgs() }];
  return argv[i + 1]!.split(';').map((v) => {
    const eq = v.indexOf('=');
    return {
      name: v.slice(0, eq).trim(),
      args: [
        ...serveArgs(),
        ...v
          .slice(eq + 1)
          .split(' ')
          .filter(Boolean),
      ],
    };
  });
}

/** The `floor` endpoint on the bench site: a function that only returns an empty array. */
function addFloor(site: string): void {
  writeFileSync(path.join(site, 'functions', 'floor.tpl'), '{return value=$dataSet.emptyArray}');
  const file = path.join(site, 'site.json');
  const c = JSON.parse(readFileSync(file, 'utf8')) as { endpoints: { path: string }[] };
  if (!c.endpoints.some((e) => e.path === 'floor')) {
    c.endpoints.push({ path: 'floor', method: 'GET', function: 'floor', api_id: 1 } as never);
    writeFileSync(file, JSON.stringify(c, null, 2));
  }
}

/**
 * `news-cached`: the `news` function behind an endpoint with the API cache (D236), so a repeated
 * read is answered from it; the plain server answers it with its `news`.
 */
function addNewsCached(site: string): void {
  const file = path.join(site, 'site.json');
  const c = JSON.parse(readFileSync(file, 'utf8')) as { endpoints: { path: string }[] };
  if (!c.endpoints.some((e) => e.path === 'news-cached')) {
    c.endpoints.push({
      path: 'news-cached',
      method: 'GET',
      function: 'news',
      api_id: 1,
      cache: { seconds: 60 },
    } as never);
    writeFileSync(file, JSON.stringify(c, null, 2));
  }
}
const plainPath = (e: string) => (e === 'news-cached' ? 'news' : e);

/** Contents of the archive group (`news-archive`): a site's years of news, not the sample's handful. */
const ARCHIVE_CONTENTS = 20_000;

/**
 * `news-archive`: the `news` function over group 3, which holds ARCHIVE_CONTENTS old contents
 * (one every six hours from 2010, a text in ja and en each), so a list's page is a page of a big
 * group (D346); the plain server pages the same group in SQL. Added once per site folder.
 */
function addArchive(site: string): void {
  const news = readFileSync(path.join(site, 'functions', 'news.tpl'), 'utf8');
  writeFileSync(path.join(site, 'functions', 'news_archive.tpl'), news.replace('values="1"', 'values="3"'));
  const file = path.join(site, 'site.json');
  const c = JSON.parse(readFileSync(file, 'utf8')) as { site_key: string; endpoints: { path: string }[] };
  if (!c.endpoints.some((e) => e.path === 'news-archive')) {
    c.endpoints.push({ path: 'news-archive', method: 'GET', function: 'news_archive', api_id: 1 } as never);
    writeFileSync(file, JSON.stringify(c, null, 2));
  }
  const db = new DatabaseSync(path.join(site, 'data', 'site.sqlite'));
  try {
    const tenant = c.site_key;
    if (db.prepare('SELECT 1 FROM topics_groups WHERE tenant = ? AND id = 3').get(tenant)) return;
    db.exec('BEGIN');
    db.prepare('INSERT INTO topics_groups (tenant, id, names) VALUES (?, 3, ?)').run(
      tenant,
      '{"ja":"アーカイブ","en":"Archive"}',
    );
    const topic = db.prepare(
      'INSERT INTO topics (tenant, id, group_id, slug, ymd, open_flg, inst_at, update_at) VALUES (?, ?, 3, ?, ?, 1, ?, ?)',
    );
    const text = db.prepare(
      'INSERT INTO topic_texts (tenant, topic_id, lang, subject, contents) VALUES (?, ?, ?, ?, ?)',
    );
    for (let i = 0; i < ARCHIVE_CONTENTS; i++) {
      const id = 100_000 + i;
      const at = Date.UTC(2010, 0, 1) / 1000 + i * 6 * 3600;
      topic.run(tenant, id, `archive-${i}`, new Date(at * 1000).toISOString().slice(0, 10), at, at);
      text.run(tenant, id, 'ja', `アーカイブ記事 ${i}`, `<p>記事 ${i} の本文です。</p>`);
      text.run(tenant, id, 'en', `Archived story ${i}`, `<p>The body of story ${i}.</p>`);
    }
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}

async function rps(): Promise<void> {
  const dir = path.join(WORK, 'sites-2');
  const keys = makeSites(dir, 2);
  const site = path.join(dir, keys[0]!);
  for (const k of keys) {
    addFloor(path.join(dir, k));
    addNewsCached(path.join(dir, k));
    addArchive(path.join(dir, k));
  }
  // `--site DIR`: serve that site instead (one on PostgreSQL, made by `site init --database`); the
  // plain server keeps reading the SQLite copy, which holds the same sample contents.
  const at = argv.indexOf('--site');
  const siteDir = at >= 0 ? path.resolve(argv[at + 1]!) : site;
  if (siteDir !== site) {
    addFloor(siteDir);
    addNewsCached(siteDir);
  }
  const multi = argv.includes('--sites');
  const fresh = argv.includes('--new-connections');
  const servers = await Promise.all(
    variants().map(async (v) => {
      // `NAME=--bin PATH ...`: that variant runs another build (bench/serve/processes.ts).
      const at = v.args.indexOf('--bin');
      const bin = at >= 0 ? v.args.slice(at, at + 2) : [];
      const rest = v.args.filter((_, i) => at < 0 || (i !== at && i !== at + 1));
      return {
        ...v,
        served: await startServe([...bin, ...(multi ? ['--sites', dir] : ['--site', siteDir]), ...rest]),
      };
    }),
  );
  // With --sites the two sites' requests in turn, each on its own connections (or a new one each,
  // or, `--shared-connections`, on connections both share).
  const paths = (e: string) => (multi ? keys.map((k) => `/sites/${k}/rcms-api/1/${e}`) : [`/rcms-api/1/${e}`]);
  const shared = argv.includes('--shared-connections');
  const serveGet: Getter = (multi && !shared) || fresh ? (u) => getOwn(u, fresh) : get;
  const plain = spawn(NODE, ['--import', 'tsx', path.join(ROOT, 'bench', 'serve', 'plain.ts'), site], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const plainUrl = await new Promise<string>((resolve) =>
    plain.stdout!.on('data', (d: Buffer) => resolve(d.toString().trim().replace(/\/$/, ''))),
  );
  const ROUNDS = opt('rounds', 3);
  const MS = opt('ms', 5000);
  const C = opt('concurrency', 8);
  // The archive's group is added to the SQLite bench sites only (a `--site` on PostgreSQL lacks it).
  const ENDPOINTS = ['news', 'news-cached', 'me', 'floor', ...(siteDir === site ? ['news-archive'] : [])];
  type Row = { req: number; cpu: number; own: number; wall: number; lat: number[] };
  const rows = new Map<string, Row>();
  const row = (name: string) =>
    rows.get(name) ?? (rows.set(name, { req: 0, cpu: 0, own: 0, wall: 0, lat: [] }), rows.get(name)!);
  try {
    for (const e of ENDPOINTS) {
      // The same contents in the same order before anything is timed (the plain answer carries
      // fewer fields per topic: bench/serve/plain.ts).
      const urls = [...servers.map((v) => v.served.url), plainUrl];
      // A first render compiles and warms an isolate: on a loaded machine it can run out of its CPU time.
      const pathOf = (i: number) => (i < servers.length ? paths(e)[0]! : `/rcms-api/1/${plainPath(e)}`);
      await Promise.all(urls.map(async (u, i) => (await fetch(`${u}${pathOf(i)}`)).arrayBuffer()));
      const answers = await Promise.all(
        urls.map(async (u, i) => {
          const p = pathOf(i);
          return JSON.stringify(same(await (await fetch(`${u}${p}`)).json()));
        }),
      );
      for (const a of answers)
        if (a !== answers.at(-1))
          throw new Error(`rps: ${e}: serve and the plain server answer differently:\n${a}\n${answers.at(-1)}`);
      for (const v of servers)
        await load(
          paths(e).map((p) => `${v.served.url}${p}`),
          C,
          1000,
          serveGet,
        );
      await load([`${plainUrl}/rcms-api/1/${plainPath(e)}`], C, 1000);
    }
    for (let r = 0; r < ROUNDS; r++) {
      for (const e of ENDPOINTS) {
        for (const [name, urls, pid, getter] of [
          ...servers.map(
            (v) => [v.name, paths(e).map((p) => `${v.served.url}${p}`), v.served.proc.pid!, serveGet] as const,
          ),
          ['plain', [`${plainUrl}/rcms-api/1/${plainPath(e)}`], plain.pid!, get] as const,
        ]) {
          const x = row(`${e} ${name}`);
          const cpu0 = treeCpuS(pid);
          const own0 = ownCpuS(pid);
          const t0 = performance.now();
          const res = await load(urls, C, MS, getter);
          x.cpu += treeCpuS(pid) - cpu0;
          x.own += ownCpuS(pid) - own0;
          x.wall += (performance.now() - t0) / 1000;
          x.req += res.latencies.length;
          x.lat.push(...res.latencies);
        }
      }
    }
  } finally {
    plain.kill();
    await Promise.all(servers.map((v) => v.served.stop()));
  }
  const perCore = (x: Row) => x.req / x.cpu;
  const msPer = (x: Row) => (x.cpu * 1000) / x.req;
  for (const [name, x] of rows) {
    log(
      `rps: ${name}: ${x.req} requests in ${x.wall.toFixed(1)} s, ${(x.req / x.wall).toFixed(0)} req/s, ${perCore(x).toFixed(0)} req per CPU-second of its process tree (${msPer(x).toFixed(3)} ms CPU per request; its first process alone ${((x.own * 1000) / x.req).toFixed(3)} ms), p50 ${pct(x.lat, 50).toFixed(1)} ms`,
    );
  }
  for (const e of ENDPOINTS) {
    const p = rows.get(`${e} plain`)!;
    for (const { name } of servers) {
      const s = rows.get(`${e} ${name}`)!;
      log(
        `rps: ${e}: ${name} / plain per core ${(perCore(s) / perCore(p)).toFixed(2)}x${e.startsWith('news') ? ' (goal >= 0.5x)' : ''}; CPU per request ${(msPer(s) / msPer(p)).toFixed(1)}x the plain server's (goal <= 3x)${e.startsWith('news') ? `; ${msPer(s).toFixed(2)} ms (goal <= 1.5 ms)` : ''}`,
      );
    }
  }
}

/** One site floods with slow requests; the others' latency with and without the flood. */
async function flood(): Promise<void> {
  const dir = path.join(WORK, 'sites-flood');
  const keys = makeSites(dir, 4);
  for (const k of keys) {
    writeFileSync(
      path.join(dir, k, 'functions', 'slow.tpl'),
      '{section name=i loop=400000}{/section}{return value="slow"}',
    );
    const file = path.join(dir, k, 'site.json');
    const c = JSON.parse(readFileSync(file, 'utf8')) as { endpoints: { path: string }[] };
    if (!c.endpoints.some((e) => e.path === 'slow')) {
      c.endpoints.push({ path: 'slow', method: 'GET', function: 'slow', api_id: 1 } as never);
      writeFileSync(file, JSON.stringify(c, null, 2));
    }
  }
  const served = await startServe(['--sites', dir, ...serveArgs()]);
  try {
    const others = keys.slice(1).map((k) => `${served.url}/sites/${k}/rcms-api/1/news`);
    await load(others, 3, 1000);
    const quiet = await load(others, 3, 8000);
    const floodUrl = `${served.url}/sites/${keys[0]}/rcms-api/1/slow`;
    let stop = false;
    const statuses = new Map<number, number>();
    const flooder = Promise.all(
      Array.from({ length: 64 }, async () => {
        while (!stop) {
          const s = await get(floodUrl);
          statuses.set(s, (statuses.get(s) ?? 0) + 1);
        }
      }),
    );
    await sleep(500);
    const loud = await load(others, 3, 8000);
    stop = true;
    await flooder;
    const f = (x: { latencies: number[] }) =>
      `${x.latencies.length} requests, p50 ${pct(x.latencies, 50).toFixed(1)} ms, p99 ${pct(x.latencies, 99).toFixed(1)} ms`;
    log(
      `flood: 3 other sites, 3 requests in flight: quiet ${f(quiet)}; while one site floods (64 in flight, slow endpoint: ${[...statuses].map(([s, n]) => `${n}x${s}`).join(', ')}) ${f(loud)}${loud.bad ? `, ${loud.bad} not 200` : ''}`,
    );
  } finally {
    await served.stop();
  }
}

const i = argv.indexOf('memory');
if (i >= 0) await memory((argv[i + 1] ?? '2,10,50').split(',').map(Number));
if (argv.includes('thousand')) await thousand();
if (argv.includes('rps')) await rps();
if (argv.includes('flood')) await flood();
