/**
 * `node --no-node-snapshot --import tsx bench/serve/pg-reads.ts SITE_DIR [--n N]`: the reads of
 * one `news` list (`topicList` of group 1) on a site kept in PostgreSQL (`site init --database`),
 * through the content adapter's PostgreSQL statements (2, D259, D366) and through the statements both
 * backends share (8: the adapter over the same database, told it is SQLite), on one client of
 * their own: CPU µs per list of this process and of the PostgreSQL backend serving the client
 * (/proc/PID/stat, so only for a server on this machine), median of 5 alternating rounds.
 */
import pg from 'pg';
import { readFileSync } from 'node:fs';
import { openBenchSite } from './site-timer.js';
import { contentAdapters } from '../../src/site/adapters/content.js';
import { topicList as topicSteps } from '../../src/host-plugins/content/topics-query.js';
import { runLater } from '../../src/host-api/now-or-later.js';
import { numberPlaceholders } from '../../src/site/db/postgres.js';
import type { SiteDatabase, SqlValue } from '../../src/site/db/database.js';

const { site, registry } = await openBenchSite();
if (site.db.dialect !== 'postgres') throw new Error('pg-reads: the site must keep its data in PostgreSQL');
const url = (JSON.parse(readFileSync(`${process.argv[2]}/site.json`, 'utf8')) as { database: string }).database;
const client = new pg.Client({ connectionString: url });
await client.connect();
const backend = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
/** CPU seconds of the backend: utime and stime, in clock ticks of 1/100 s. */
const backendCpuS = (): number => {
  const f = readFileSync(`/proc/${backend}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};

// One statement at a time, as a client runs them (pg deprecates queueing on a client).
let last: Promise<unknown> = Promise.resolve();
const rows = (sql: string, params: readonly SqlValue[] = []): Promise<Record<string, SqlValue>[]> => {
  const answer = last.then(() => client.query(numberPlaceholders(sql), params as SqlValue[]));
  last = answer.catch(() => {});
  return answer.then((r) => r.rows as Record<string, SqlValue>[]);
};
const onOneClient = (dialect: 'sqlite' | 'postgres'): SiteDatabase => ({
  ...site.db,
  dialect,
  all: rows as SiteDatabase['all'],
  get: (async (sql: string, params?: readonly SqlValue[]) => (await rows(sql, params))[0]) as SiteDatabase['get'],
});
// topicList is a generator of steps (now or later, D268); runLater drives it over the promises.
const topicList = (...a: Parameters<typeof topicSteps>) => runLater(topicSteps(...a));
const render = { now: Math.floor(Date.now() / 1000), timezone: 'Asia/Tokyo', lang: 'ja' };
const query = { groupId: 1, perPage: 10, page: 1, categoryId: null };
const ways = {
  'PostgreSQL statements (2)': contentAdapters({ ...site, db: onOneClient('postgres') }).content!,
  'shared statements (8)': contentAdapters({ ...site, db: onOneClient('sqlite') }).content!,
};

const N = Number(process.argv[process.argv.indexOf('--n') + 1] ?? 0) || 300;
const took = new Map<string, { own: number[]; backend: number[] }>();
for (let round = 0; round < 5; round++)
  for (const [name, content] of Object.entries(ways)) {
    for (let i = 0; i < 30; i++) await topicList(content, query, { lang: 'ja', render });
    const own0 = process.cpuUsage();
    const backend0 = backendCpuS();
    for (let i = 0; i < N; i++) await topicList(content, query, { lang: 'ja', render });
    const own = process.cpuUsage(own0);
    const t = took.get(name) ?? took.set(name, { own: [], backend: [] }).get(name)!;
    t.own.push((own.user + own.system) / N);
    t.backend.push(((backendCpuS() - backend0) * 1e6) / N);
  }
const median = (v: number[]): string => [...v].sort((a, b) => a - b)[2]!.toFixed(0);
for (const [name, t] of took)
  console.log(
    `${name.padEnd(28)} this process ${median(t.own).padStart(5)} µs, its backend ${median(t.backend).padStart(5)} µs`,
  );
await client.end();
await registry.close();
