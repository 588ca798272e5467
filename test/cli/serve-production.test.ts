/**
 * `smartcage serve` run as an operator runs it (the built bin/smartcage.js, real processes): its
 * configuration from flags, environment and a config file, a SIGTERM during a 2-second request,
 * --processes 2 losing a child, and a wrapper killed by SIGKILL leaving no process behind.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initSite } from '../../src/site/init.js';
import { BIN, requireBuild } from '../support/bin.js';
import { alive, descendants, eventually, startServe, stopServe, type ServeProcess } from '../support/serve-process.js';

beforeAll(requireBuild);

const running: ServeProcess[] = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => stopServe(s)));
});
afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

/** A site folder whose GET /rcms-api/1/slow takes two seconds (two {sleep} of 1000 ms, the most one may sleep). */
async function slowSite(database: string | null = null): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-prod-'));
  folders.push(dir);
  await initSite(dir, { siteKey: `p${Math.random().toString(36).slice(2, 10)}`, database });
  const config = JSON.parse(readFileSync(path.join(dir, 'site.json'), 'utf8')) as { endpoints: unknown[] };
  config.endpoints.push({ path: 'slow', method: 'GET', function: 'slow', api_id: 1 });
  writeFileSync(path.join(dir, 'site.json'), JSON.stringify(config, null, 2));
  writeFileSync(path.join(dir, 'functions', 'slow.tpl'), '{sleep ms=1000}{sleep ms=1000}{return value="slept"}');
  return dir;
}

async function serve(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const s = await startServe(['--port', '0', ...args], { env, waitMs: 60_000 });
  running.push(s);
  return s;
}

function bin(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('serve configuration', () => {
  it('bad configuration is one line on stderr and exit 3; an unknown flag stays exit 2', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-prod-'));
    folders.push(dir);
    const unknownKey = path.join(dir, 'unknown.json');
    writeFileSync(unknownKey, JSON.stringify({ port: 0, hosts: 'x' }));
    const notJson = path.join(dir, 'bad.json');
    writeFileSync(notJson, '{"port": 0,');
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [
        ['serve', '--config', unknownKey],
        {},
        /^smartcage serve: config file .*unknown\.json: unknown key "hosts" \(the keys are host, port,/,
      ],
      [['serve'], { SMARTCAGE_CONFIG: notJson }, /^smartcage serve: config file .*bad\.json is not JSON/],
      [
        ['serve'],
        { SMARTCAGE_PORT: '65536' },
        /^smartcage serve: SMARTCAGE_PORT needs a whole number from 0 to 65535, not "65536"$/,
      ],
      [['serve', '--drain-timeout', 'soon'], {}, /^smartcage serve: --drain-timeout needs a number of seconds/],
      [['serve', '--processes', 'many'], {}, /^smartcage serve: --processes needs a whole number from 1 to 256/],
      [['serve'], { SMARTCAGE_API_CACHE_MB: '0' }, /^smartcage serve: SMARTCAGE_API_CACHE_MB needs a whole number /],
      [
        ['serve', '--api-cache-entry-kb', '8192'],
        {},
        /^smartcage serve: api-cache-entry-kb 8192 is more than a site's share of the API cache \(10 % of 64 MB: 6553 KB\)$/,
      ],
    ];
    for (const [args, env, line] of cases) {
      const r = bin(args, env);
      expect(r.status, r.stderr).toBe(3);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr.trimEnd()).toMatch(line);
      expect(r.stdout).toBe('');
    }
    const usage = bin(['serve', '--hots', '0.0.0.0']);
    expect(usage.status).toBe(2);
    expect(usage.stderr.split('\n')[0]).toBe('smartcage serve: unknown option --hots (did you mean --host?)');
  }, 120_000);

  it('takes the port from the config file, and a flag over it; /healthz and /readyz answer at the root', async () => {
    const site = await slowSite();
    const file = path.join(site, 'serve.json');
    writeFileSync(file, JSON.stringify({ port: 1, site: '.', 'drain-timeout': 5 }));
    // --port 0 (the flag) wins over the file's 1; the file's site is relative to the file.
    const s = await serve(['--processes', '1'], { SMARTCAGE_CONFIG: file });
    expect(s.out()).toMatch(/\(site p[a-z0-9]+: API at/);
    expect(await (await fetch(`${s.url}/healthz`)).json()).toEqual({ alive: true });
    expect(await (await fetch(`${s.url}/readyz`)).json()).toEqual({ ready: true });
  }, 120_000);
});

describe('serve stops gracefully', () => {
  it('SIGTERM during a 2-second request: the request completes with 200, then the process exits 0', async () => {
    const s = await serve(['--site', await slowSite(), '--processes', '1']);
    const answer = fetch(`${s.url}/rcms-api/1/slow`).then(async (r) => ({
      status: r.status,
      body: await r.text(),
      connection: r.headers.get('connection'),
    }));
    // The request is in flight once its first {sleep} runs; the server then gets SIGTERM.
    await new Promise((r) => setTimeout(r, 700));
    s.child.kill('SIGTERM');
    const r = await answer;
    expect(r).toEqual({ status: 200, body: '"slept"', connection: 'close' });
    expect(await s.exited).toEqual({ code: 0, signal: null });
  }, 120_000);

  it('past --drain-timeout the request is cut and the exit status is 5', async () => {
    const s = await serve(['--site', await slowSite(), '--processes', '1', '--drain-timeout', '0.3']);
    const answer = fetch(`${s.url}/rcms-api/1/slow`).then(
      (r) => r.status,
      () => 'cut',
    );
    await new Promise((r) => setTimeout(r, 700));
    s.child.kill('SIGTERM');
    expect(await answer).toBe('cut');
    expect(await s.exited).toEqual({ code: 5, signal: null });
  }, 120_000);
});

describe('serve --processes 2', () => {
  it('a child killed by SIGKILL: the other keeps answering, a new child takes its place, SIGTERM stops all with 0', async () => {
    const s = await serve(['--site', await slowSite(), '--processes', '2']);
    // The address line comes once, from the primary.
    expect(s.out().match(/smartcage serve: http/g)).toHaveLength(1);
    const cmdline = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        return '';
      }
    };
    // wrapper -> primary -> servers (-> their sandbox workers, whose command is worker-main.js).
    const [primary] = descendants(s.child.pid!);
    const servers = () => descendants(primary!).filter((p) => cmdline(p).includes('smartcage.js'));
    expect(await eventually(() => s.out().includes('smartcage serve: 2 processes listening'), 60_000)).toBe(true);
    expect(servers()).toHaveLength(2);
    const before = servers();
    process.kill(before[0]!, 'SIGKILL');
    // Once the primary knows (a connection it handed to the child as it died is that child's to lose):
    expect(
      await eventually(() => s.out().includes(`process ${before[0]} was killed by SIGKILL; starting another`), 30_000),
    ).toBe(true);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await fetch(`${s.url}/rcms-api/1/me`, { signal: AbortSignal.timeout(20_000) })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await eventually(() => servers().length === 2 && !servers().includes(before[0]!), 30_000)).toBe(true);
    expect(servers()).toContain(before[1]);
    s.child.kill('SIGTERM');
    expect(await s.exited).toEqual({ code: 0, signal: null });
  }, 180_000);
});

describe('no process outlives the wrapper', () => {
  for (const processes of ['1', '2']) {
    it(`the wrapper killed by SIGKILL (--processes ${processes}): its Node 24 child, the servers and any sandbox worker all exit`, async () => {
      const s = await serve(['--site', await slowSite(), '--processes', processes]);
      // A render starts the sandbox workers.
      expect((await fetch(`${s.url}/rcms-api/1/me`)).status).toBe(200);
      const tree = descendants(s.child.pid!);
      // The Node 24 child and its sandbox worker; or the primary and its children, which render
      // in-process (D200).
      expect(tree.length).toBeGreaterThanOrEqual(processes === '1' ? 2 : 3);
      s.child.kill('SIGKILL');
      await s.exited;
      expect(
        await eventually(() => tree.every((p) => !alive(p)), 15_000),
        `still alive: ${tree.filter(alive).join(' ')}`,
      ).toBe(true);
    }, 120_000);
  }
});
