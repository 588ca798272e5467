/**
 * Site affinity across real processes (`serve --sites --processes 2`, D226): each site's requests
 * are served by one child, told by the pid on its access-log line; a child killed by SIGKILL has
 * its site served by the sibling until its replacement is up; a keep-alive connection shared by
 * two sites has each site's requests served by its owner (the child relays them, D238); a
 * 2-second request completes over a SIGTERM. `--affinity off` hands connections round-robin again.
 */
import { spawnSync } from 'node:child_process';
import { request, Agent } from 'node:http';
import { createServer } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initSite } from '../../src/site/init.js';
import { ownerOf } from '../../src/site/server/affinity.js';
import { BIN, requireBuild } from '../support/bin.js';
import { eventually, startServe, stopServe, type ServeProcess } from '../support/serve-process.js';

beforeAll(requireBuild);

const running: ServeProcess[] = [];
let sitesDir = '';
/** Two site keys, the first owned by slot 0 and the second by slot 1 while both are up. */
let keys: [string, string];

beforeAll(async () => {
  sitesDir = mkdtempSync(path.join(tmpdir(), 'smartcage-affinity-'));
  const candidates = Array.from({ length: 20 }, (_, i) => `aff${i}`);
  keys = [candidates.find((k) => ownerOf(k, [0, 1]) === 0)!, candidates.find((k) => ownerOf(k, [0, 1]) === 1)!];
  for (const key of keys) {
    const dir = path.join(sitesDir, key);
    mkdirSync(dir);
    await initSite(dir, { siteKey: key, database: null });
    // GET /rcms-api/1/who answers the site's key; GET /rcms-api/1/slow takes two seconds.
    const config = JSON.parse(readFileSync(path.join(dir, 'site.json'), 'utf8')) as { endpoints: unknown[] };
    config.endpoints.push({ path: 'who', method: 'GET', function: 'who', api_id: 1 });
    config.endpoints.push({ path: 'slow', method: 'GET', function: 'slow', api_id: 1 });
    writeFileSync(path.join(dir, 'site.json'), JSON.stringify(config, null, 2));
    writeFileSync(path.join(dir, 'functions', 'who.tpl'), `{return value="${key}"}`);
    writeFileSync(path.join(dir, 'functions', 'slow.tpl'), '{sleep ms=1000}{sleep ms=1000}{return value="slept"}');
  }
}, 120_000);
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => stopServe(s)));
});
afterAll(() => rmSync(sitesDir, { recursive: true, force: true }));

async function serve(extra: string[] = []): Promise<ServeProcess> {
  const s = await startServe(['--sites', sitesDir, '--processes', '2', '--port', '0', ...extra], { waitMs: 60_000 });
  running.push(s);
  expect(await eventually(() => s.stderr().includes('smartcage serve: 2 processes listening'), 60_000)).toBe(true);
  return s;
}

let ids = 0;

type AccessLine = { pid: number; remote: string; status: number; site: string; endpoint: string; relayed?: true };

/** The access-log lines of the request `id` so far: the one of the process that served it, and one where it was relayed. */
function linesOf(s: ServeProcess, id: string): AccessLine[] {
  return s
    .stderr()
    .split('\n')
    .filter((line) => line.includes(`"reqId":"${id}"`))
    .map((line) => JSON.parse(line) as AccessLine);
}

/** The pid and the client address on the access-log line of the request `id` (it comes a moment after the answer). */
async function servedBy(s: ServeProcess, id: string): Promise<{ pid: number; remote: string }> {
  const find = () => linesOf(s, id).find((line) => line.relayed === undefined);
  await eventually(() => find() !== undefined, 10_000);
  const found = find();
  if (found === undefined) throw new Error(`no access-log line for ${id}`);
  return found;
}

type Answer = {
  id: string;
  status: number;
  body: string;
  pid: number;
  remote: string;
  port: number;
  connection: string | undefined;
};

/** GET `path` with the Host `host`, on a new connection or on `agent`'s; what it answered and which process served it. */
function get(s: ServeProcess, host: string, pathname: string, agent?: Agent): Promise<Answer> {
  const id = `affinity-${process.pid}-${++ids}`;
  const { port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        headers: { host, 'x-request-id': id, ...(agent ? {} : { connection: 'close' }) },
        agent: agent ?? false,
      },
      (res) => {
        // Read now: a keep-alive socket goes back to its agent at the end.
        const local = res.socket.localPort ?? 0;
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => {
          void servedBy(s, id).then(
            ({ pid, remote }) =>
              resolve({
                id,
                status: res.statusCode!,
                body,
                pid,
                remote,
                port: local,
                connection: res.headers.connection,
              }),
            reject,
          );
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('serve --sites --processes 2 with affinity', () => {
  it("each site's requests are served by one child, whether it is named by the Host or the path", async () => {
    const s = await serve();
    const pids: Record<string, Set<number>> = { [keys[0]]: new Set(), [keys[1]]: new Set() };
    for (let i = 0; i < 4; i++) {
      for (const key of keys) {
        const byHost = await get(s, `${key}.localhost`, '/rcms-api/1/who');
        const byPath = await get(s, '127.0.0.1', `/sites/${key}/rcms-api/1/who`);
        for (const a of [byHost, byPath]) {
          expect(a.status).toBe(200);
          expect(a.body).toBe(JSON.stringify(key));
          pids[key]!.add(a.pid);
        }
      }
    }
    expect(pids[keys[0]]!.size).toBe(1);
    expect(pids[keys[1]]!.size).toBe(1);
    expect([...pids[keys[0]]!][0]).not.toBe([...pids[keys[1]]!][0]);
    // What names no site goes to either child.
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
    expect(await (await fetch(`${s.url}/metrics`)).text()).toMatch(/^# HELP /m);
  }, 180_000);

  it('two sites on one shared keep-alive agent: after a warm-up each is served by its owner, none fails', async () => {
    const s = await serve();
    const owners = [
      (await get(s, `${keys[0]}.localhost`, '/rcms-api/1/who')).pid,
      (await get(s, `${keys[1]}.localhost`, '/rcms-api/1/who')).pid,
    ];
    expect(owners[0]).not.toBe(owners[1]);
    // From another loopback address than the relay's: the owner logs the client's.
    const agent = new Agent({ keepAlive: true, maxSockets: 2, localAddress: '127.0.0.2' });
    try {
      // Warm-up: until the primary has told both children who is up, a child serves what it gets.
      await eventually(async () => {
        const a = await get(s, '127.0.0.1', `/sites/${keys[1]}/rcms-api/1/who`, agent);
        const b = await get(s, '127.0.0.1', `/sites/${keys[0]}/rcms-api/1/who`, agent);
        return a.pid === owners[1] && b.pid === owners[0];
      }, 30_000);
      const answers: (Answer & { key: string })[] = [];
      for (let round = 0; round < 8; round++) {
        const batch = [keys[0], keys[1], keys[1], keys[0]].map((key) =>
          get(s, '127.0.0.1', `/sites/${key}/rcms-api/1/who`, agent).then((a) => ({ ...a, key })),
        );
        answers.push(...(await Promise.all(batch)));
      }
      expect(answers.filter((a) => a.status !== 200 || a.body !== JSON.stringify(a.key))).toEqual([]);
      expect(answers.filter((a) => a.pid !== owners[keys.indexOf(a.key as (typeof keys)[number])])).toEqual([]);
      expect(new Set(answers.map((a) => a.remote))).toEqual(new Set(['127.0.0.2']));
      // No reconnects: the agent's two connections carried all of them.
      expect(new Set(answers.map((a) => a.port)).size).toBeLessThanOrEqual(2);
      expect(answers.every((a) => a.connection !== 'close')).toBe(true);
      // A relayed request has a line in the child that relayed it too: marked, with the owner's status.
      // Two connections, each routed by its first request, carried both sites: some were relayed.
      // (Which ones is the primary's routing; the lines come a moment after the answers.)
      expect(await eventually(() => answers.some((a) => linesOf(s, a.id).some((l) => l.relayed)), 10_000)).toBe(true);
      const relayed: AccessLine[] = [];
      for (const a of answers) {
        for (const line of linesOf(s, a.id).filter((l) => l.relayed)) {
          expect(line).toMatchObject({ status: 200, site: a.key, endpoint: `/sites/${a.key}/rcms-api/1/who` });
          expect(line.pid).not.toBe(a.pid);
          expect(line.remote).toBe('127.0.0.2');
          relayed.push(line);
        }
      }
      expect(relayed.length).toBeGreaterThan(0);
    } finally {
      agent.destroy();
    }
  }, 180_000);

  it('a child killed by SIGKILL: its site is served by the sibling, then by the child that replaces it', async () => {
    const s = await serve();
    const [a, b] = [
      await get(s, `${keys[0]}.localhost`, '/rcms-api/1/who'),
      await get(s, `${keys[1]}.localhost`, '/rcms-api/1/who'),
    ];
    expect(a.pid).not.toBe(b.pid);
    process.kill(b.pid, 'SIGKILL');
    expect(
      await eventually(() => s.stderr().includes(`process ${b.pid} was killed by SIGKILL; starting another`), 30_000),
    ).toBe(true);
    // Its replacement takes seconds to start; meanwhile the sibling serves the site.
    const during = await get(s, `${keys[1]}.localhost`, '/rcms-api/1/who');
    expect([during.status, during.body, during.pid]).toEqual([200, JSON.stringify(keys[1]), a.pid]);
    // Once the replacement is up, the site goes back to its slot; the other site never moved.
    let back: Answer | undefined;
    expect(
      await eventually(async () => {
        back = await get(s, `${keys[1]}.localhost`, '/rcms-api/1/who');
        return back.pid !== a.pid;
      }, 60_000),
    ).toBe(true);
    expect([back!.status, back!.body]).toEqual([200, JSON.stringify(keys[1])]);
    expect(back!.pid).not.toBe(b.pid);
    expect((await get(s, `${keys[0]}.localhost`, '/rcms-api/1/who')).pid).toBe(a.pid);
  }, 180_000);

  it('SIGTERM during a 2-second request: it completes with 200 and connection: close, then the server exits 0', async () => {
    const s = await serve();
    const answer = get(s, `${keys[1]}.localhost`, '/rcms-api/1/slow');
    // The request is in flight once its first {sleep} runs.
    await new Promise((r) => setTimeout(r, 700));
    s.child.kill('SIGTERM');
    const r = await answer;
    expect([r.status, r.body, r.connection]).toEqual([200, '"slept"', 'close']);
    expect(await s.exited).toEqual({ code: 0, signal: null });
  }, 180_000);

  it('the port in use is one line and exit 3: the primary listens itself', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    try {
      const port = (taken.address() as { port: number }).port;
      // The taken port stays bound while this process waits.
      const r = spawnSync(
        process.execPath,
        [BIN, 'serve', '--sites', sitesDir, '--processes', '2', '--port', String(port)],
        {
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      expect([r.status, r.stderr]).toEqual([
        3,
        `smartcage serve: port ${port} is in use (try --port 0 for a free one, or another --port N)\n`,
      ]);
    } finally {
      taken.close();
    }
  }, 60_000);

  it('--affinity off: connections go to each child in turn, whatever their site', async () => {
    const s = await serve(['--affinity', 'off']);
    const pids = new Set<number>();
    for (let i = 0; i < 6; i++) pids.add((await get(s, `${keys[0]}.localhost`, '/rcms-api/1/who')).pid);
    expect(pids.size).toBe(2);
  }, 180_000);
});
