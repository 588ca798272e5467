/**
 * Many nodes, one truth (issue 34, "What it must show"): three `serve --sites` processes and two
 * `batch run --sites` workers, as an operator runs them (the built bin), share one PostgreSQL, one
 * Redis and one S3-compatible server (s3rver), all started here. The site is made by
 * `site init --database --storage s3:// --batch-queue redis://` with its secrets in the
 * environment.
 *
 * With every node up: counters exact, appends exact across nodes, a session valid on every node,
 * batches exactly once. Then, under load: one serve node and one worker are SIGKILLed, PostgreSQL
 * restarts, Redis loses its data (FLUSHALL). At the end nothing acknowledged is lost (every
 * acknowledged increment counted, every acknowledged line in the file once, every acknowledged
 * batch run done once), nothing unacknowledged from a live node took effect twice, and no history
 * row written before the flush was overwritten.
 *
 * The workers run as under a supervisor: one that exits on its own is started again (today `batch
 * run` exits when PostgreSQL restarts under it; the exits show in a failure's message).
 *
 * Runs where the site tests' PostgreSQL does (SMARTCAGE_PG_URL set: the PostgreSQL binaries are
 * there), with a cluster of its own so the shared one is never restarted; redis-server must be on
 * the PATH. Reported skipped elsewhere.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { BIN, requireBuild, ROOT } from '../support/bin.js';
import { eventually, startServe, stopServe, type ServeProcess } from '../support/serve-process.js';
import { S3_ACCESS_KEY, S3_SECRET_KEY, startS3, type TestS3 } from '../support/s3-server.js';
import { openDatabase, type SiteDatabase } from '../../src/site/db/database.js';

const PG = path.join(ROOT, 'scripts/ci/postgres.sh');
const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
const d = process.env.SMARTCAGE_PG_URL && hasRedis ? describe : describe.skip;

const KEY = 'scale';
const SECRETS = { SCALE_S3_KEY: S3_ACCESS_KEY, SCALE_S3_SECRET: S3_SECRET_KEY };

const FUNCTIONS: Record<string, string> = {
  inc: '{increment_counter var=v value=1 topics_group_id=1 slug=10 ext_slug="view_count"}{return value="ok"}',
  views: '{sync_counter ids="10"}{assign_topics_detail var=t topics_id=10}{return value=$t.view_count}',
  append: '{write_file path="/files/user/log.txt" var=p value="`$smarty.get.line`\\n" is_append=1}{return value="ok"}',
  login: '{login member_id=2}{return value="in"}',
  whoami: '{return value=$smarty.session.member_id}',
  start: '{batch name="tick" ext_data=$smarty.get var=id}{return value=$id}',
};

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const port = (s.address() as AddressInfo).port;
  await new Promise((ok) => s.close(ok));
  return port;
}

/** What the load sent and what was acknowledged (200), by kind. */
class Ledger {
  sent = 0;
  acked = 0;
  readonly ackedLines: string[] = [];
  readonly sentLines: string[] = [];
  readonly runIds: number[] = [];
}

d('scale-out: 3 serve nodes, 2 workers, one PostgreSQL, Redis and S3', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'smartcage-scale-'));
  // A folder of its own: the script hands it to the user postgres, who cannot enter `work`.
  const pgDir = mkdtempSync(path.join(tmpdir(), 'smartcage-scale-pg-'));
  const sitesDir = path.join(work, 'sites');
  let pgPort = 0;
  let pgUrl = '';
  let redis: ChildProcess | undefined;
  let redisUrl = '';
  let s3: TestS3;
  let bucket = '';
  const nodes: ServeProcess[] = [];
  const workers: ChildProcess[] = [];
  /** What each worker printed, for the message of a failure. */
  const workerOut: string[] = [];
  const exits: string[] = [];
  let stopping = false;
  const env = { ...SECRETS };

  const startRedis = async () => {
    redis = spawn(
      'redis-server',
      [
        '--bind',
        '127.0.0.1',
        '--port',
        String(new URL(redisUrl).port),
        '--dir',
        work,
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      { stdio: 'ignore' },
    );
    const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
    probe.on('error', () => {});
    for (let i = 0; i < 100; i++) {
      try {
        await probe.connect();
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    await probe.ping();
    probe.disconnect();
  };
  const startWorker = () => {
    const w = spawn(process.execPath, [BIN, 'batch', 'run', '--sites', sitesDir, '--lease', '6', '--poll', '1'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const i = workers.length;
    workerOut[i] = '';
    w.stdout!.on('data', (d) => (workerOut[i] += d));
    w.stderr!.on('data', (d) => (workerOut[i] += d));
    // A worker that exits on its own is started again, as its supervisor (systemd, Kubernetes) would;
    // the exits are kept for the failure message. The SIGKILLed one stays dead.
    w.once('exit', (code) => {
      if (stopping || code === null) return;
      exits.push(`worker ${i} exited ${code}: ${workerOut[i]!.slice(-300)}`);
      setTimeout(() => !stopping && startWorker(), 500);
    });
    workers.push(w);
    return w;
  };
  const startNode = () => startServe(['--port', '0', '--sites', sitesDir, '--processes', '1'], { env, waitMs: 90_000 });

  beforeAll(async () => {
    requireBuild();
    pgPort = await freePort();
    pgUrl = execFileSync(PG, ['start', pgDir, String(pgPort)], { encoding: 'utf8' }).trim();
    redisUrl = `redis://127.0.0.1:${await freePort()}`;
    await startRedis();
    s3 = await startS3();
    bucket = await s3.bucket();

    // The site, as an operator makes it: secrets in the environment, named in site.json.
    mkdirSync(sitesDir);
    const dir = path.join(sitesDir, KEY);
    const init = spawnSync(
      process.execPath,
      [
        BIN,
        'site',
        'init',
        dir,
        '--database',
        pgUrl,
        '--storage',
        `s3://${bucket}/${KEY}`,
        '--s3-endpoint',
        s3.endpoint,
        '--s3-key-secret',
        'S3_KEY',
        '--s3-secret-secret',
        'S3_SECRET',
        '--batch-queue',
        redisUrl,
        '--secrets-env',
        'SCALE_',
      ],
      { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' },
    );
    expect(init.status, init.stderr).toBe(0);
    const file = path.join(dir, 'site.json');
    const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(JSON.stringify(config)).not.toContain(S3_SECRET_KEY);
    config.endpoints = Object.keys(FUNCTIONS).map((f) => ({ path: f, method: 'GET', function: f, api_id: 1 }));
    config.batches = [{ slug: 'tick', id: 2 }];
    writeFileSync(file, JSON.stringify(config, null, 2));
    for (const [f, text] of Object.entries(FUNCTIONS)) writeFileSync(path.join(dir, 'functions', `${f}.tpl`), text);
    // A run takes a moment (tens of ms of work, far below the 1 s CPU limit even on a loaded machine), so a worker can be killed in the middle of one.
    writeFileSync(
      path.join(dir, 'batches', 'tick.tpl'),
      '{section name=i loop=50000}{assign var=x value=$smarty.section.i.index}{/section}tick {$ext_data.n}',
    );

    nodes.push(...(await Promise.all([startNode(), startNode(), startNode()])));
    startWorker();
    startWorker();
  }, 180_000);

  afterAll(async () => {
    stopping = true;
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    await Promise.all(nodes.map((n) => stopServe(n, 5000)));
    redis?.kill('SIGKILL');
    await s3?.close();
    try {
      execFileSync(PG, ['stop', pgDir]);
    } catch {
      // stopped already
    }
    rmSync(work, { recursive: true, force: true });
    rmSync(pgDir, { recursive: true, force: true });
  }, 60_000);

  /** GET an endpoint of the site on node `i`: the JSON answer, or null when it failed (not acknowledged). */
  /** What the nodes answered instead of 200, for the failure messages (the first few tell why). */
  const refusals: string[] = [];
  async function call(i: number, fn: string, query = '', headers: Record<string, string> = {}) {
    try {
      const r = await fetch(`${nodes[i]!.url}/sites/${KEY}/rcms-api/1/${fn}${query ? `?${query}` : ''}`, {
        headers,
        signal: AbortSignal.timeout(20_000),
      });
      const text = await r.text();
      if (r.status === 200) return { body: JSON.parse(text) as unknown, headers: r.headers };
      refusals.push(`${fn} on node ${i}: ${r.status} ${text.slice(0, 300)}`);
      return null;
    } catch (e) {
      refusals.push(`${fn} on node ${i}: ${String(e).slice(0, 300)}`);
      return null;
    }
  }

  /** `count` calls over the live nodes `on`, `parallel` at a time. */
  async function load(
    on: () => number[],
    count: number,
    parallel: number,
    one: (node: number, n: number) => Promise<void>,
  ) {
    let next = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < count) {
          const n = next++;
          const live = on();
          await one(live[n % live.length]!, n);
        }
      }),
    );
  }

  const counter = new Ledger();
  const appends = new Ledger();
  const batches = new Ledger();
  let tag = 0;
  const inc = async (node: number) => {
    counter.sent++;
    if ((await call(node, 'inc'))?.body === 'ok') counter.acked++;
  };
  const append = async (node: number) => {
    const line = `line-${++tag}-node${node}`;
    appends.sentLines.push(line);
    if ((await call(node, 'append', `line=${line}`))?.body === 'ok') appends.ackedLines.push(line);
  };
  const start = async (node: number) => {
    batches.sent++;
    const r = await call(node, 'start', `n=${++tag}`);
    if (r && typeof r.body === 'number') batches.runIds.push(r.body);
  };
  const views = async (node: number) => (await call(node, 'views'))!.body as number;
  const fileLines = async () =>
    ((await s3.rawGet(bucket, `${KEY}/files/user/log.txt`)) ?? '').split('\n').filter(Boolean);
  let db: SiteDatabase;
  const history = () =>
    db.all<{
      run_id: number;
      attempt: number;
      state: string;
      started: number;
      output: string;
      errors: string;
      worker: string;
    }>(
      'SELECT run_id, attempt, state, started, output, errors, worker FROM batch_runs WHERE tenant = ? ORDER BY run_id, attempt',
      [KEY],
    );

  it('holds every promise with all nodes up, and after kills, a PostgreSQL restart and a Redis flush', async () => {
    const all = () => [0, 1, 2];
    // A session made on one node is valid on every node.
    const login = await call(0, 'login');
    const cookie = (login!.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(cookie).toMatch(/=/);
    for (const i of all()) expect((await call(i, 'whoami', '', { cookie }))?.body).toBe(2);

    // Counters exact, appends exact, batches exactly once: every node up.
    const before = await views(0);
    await load(all, 90, 15, inc);
    expect(counter.acked).toBe(90);
    expect(await views(1)).toBe(before + 90);
    await load(all, 30, 6, append);
    expect(appends.ackedLines, refusals.slice(0, 5).join('\n')).toHaveLength(30);
    expect((await fileLines()).sort()).toEqual([...appends.ackedLines].sort());
    await load(all, 12, 4, start);
    expect(batches.runIds).toHaveLength(12);
    db = await openDatabase({ url: pgUrl, sqlitePath: '' });
    await eventually(async () => (await history()).filter((r) => r.state === 'done').length >= 12, 60_000);
    expect((await history()).map((r) => `${r.run_id}:${r.state}${r.state === 'done' ? '' : ` ${r.errors}`}`)).toEqual(
      batches.runIds.sort((x, y) => x - y).map((id) => `${id}:done`),
    );

    // Under load: SIGKILL serve node 2 with requests in flight, and worker 1 while runs are queued.
    let killed = false;
    const live = () => (killed ? [0, 1] : all());
    const mixed = load(live, 120, 9, async (node, n) => {
      if (n === 45 && !killed) {
        nodes[2]!.child.kill('SIGKILL');
        workers[1]!.kill('SIGKILL');
        killed = true;
      }
      if (n % 3 === 0) await inc(node);
      else if (n % 3 === 1) await append(node);
      else await start(node);
    });
    await mixed;

    // PostgreSQL restarts: requests fail while it is down, then work again without restarting a node.
    await db.close();
    execFileSync(PG, ['stop', pgDir]);
    expect(await call(0, 'inc')).toBeNull();
    counter.sent++;
    execFileSync(PG, ['resume', pgDir, String(pgPort)]);
    expect(await eventually(async () => (await call(1, 'whoami', '', { cookie }))?.body === 2, 30_000)).toBe(true);
    db = await openDatabase({ url: pgUrl, sqlitePath: '' });

    // Redis loses its data: the history so far is kept, ids go on, nothing is run twice.
    await eventually(
      async () => (await history()).filter((r) => r.state === 'done').length >= batches.runIds.length,
      60_000,
    );
    const kept = await history();
    const flush = new Redis(redisUrl);
    await flush.flushall();
    flush.disconnect();
    const beforeFlush = Math.max(...batches.runIds);
    const afterFlush: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await call(i % 2, 'start', `n=${++tag}`);
      batches.sent++;
      if (r && typeof r.body === 'number') {
        batches.runIds.push(r.body);
        afterFlush.push(r.body);
      }
    }
    expect(afterFlush).toHaveLength(6);
    expect(Math.min(...afterFlush)).toBeGreaterThan(beforeFlush);

    // A restarted node serves the same session and counts.
    nodes[2] = await startNode();
    expect((await call(2, 'whoami', '', { cookie }))?.body).toBe(2);

    // Nothing acknowledged was lost.
    const total = (await views(2)) - before;
    expect(total).toBeGreaterThanOrEqual(counter.acked);
    expect(total).toBeLessThanOrEqual(counter.sent);
    const lines = await fileLines();
    expect(new Set(lines).size).toBe(lines.length);
    for (const l of appends.ackedLines) expect(lines).toContain(l);
    for (const l of lines) expect(appends.sentLines).toContain(l);

    expect(new Set(batches.runIds).size).toBe(batches.runIds.length);
    const notDone = async () => {
      const done = new Set((await history()).filter((r) => r.state === 'done').map((r) => r.run_id));
      return batches.runIds.filter((id) => !done.has(id));
    };
    await eventually(async () => (await notDone()).length === 0, 90_000);
    const missing = await notDone();
    // On failure: where each missing run is (its queue row and attempts).
    const where = await db.all(
      `SELECT id, state, attempts, lease_owner, lease_expires, queued_at FROM batch_queue WHERE tenant = ? AND id IN (${missing.map(() => '?').join(',') || 'NULL'})`,
      [KEY, ...missing],
    );
    const workersSaid = workers.map(
      (w, i) => `worker ${i} (${w.exitCode ?? w.signalCode ?? 'running'}): ${workerOut[i]!.slice(-800)}`,
    );
    expect(
      missing,
      `runs acknowledged but never done: ${JSON.stringify(where)}\n${workersSaid.join('\n')}\n${exits.join('\n')}`,
    ).toEqual([]);
    const rows = await history();
    // Exactly once: one done attempt per run; a second attempt only after a lost one (the killed worker's).
    for (const id of batches.runIds) {
      const attempts = rows.filter((r) => r.run_id === id);
      expect(
        attempts.filter((r) => r.state === 'done'),
        `run ${id}`,
      ).toHaveLength(1);
      expect(
        attempts.filter((r) => r.state !== 'done' && r.state !== 'lost'),
        `run ${id}`,
      ).toEqual([]);
    }
    // No history row written before the flush was overwritten.
    for (const row of kept.filter((r) => r.state === 'done'))
      expect(rows.find((r) => r.run_id === row.run_id && r.attempt === row.attempt)).toEqual(row);
    await db.close();
  }, 300_000);
});
