/**
 * The logs and metrics of `smartcage serve` (src/site/server/), against the built command as an
 * operator runs it: one access-log line per request with its fields, template log lines labelled
 * with site and line, /metrics as Prometheus text whose counters move, and no secret, cookie,
 * Authorization header, access token, query or body value anywhere in the log (a canary).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, requireBuild, runBin } from '../../support/bin.js';
import { startServe, stopServe, type ServeProcess } from '../../support/serve-process.js';
import { parsePrometheusText, sampleValue } from './prometheus-text.js';
import { ACCESS_FIELDS } from '../../../src/site/server/observer.js';
import { REDACTED_FIELDS } from '../../../src/site/server/logging.js';

beforeAll(requireBuild);

const CANARY = 'CANARY-6d1f0c';
const FUNCTIONS: Record<string, string> = {
  logs: '{secret var=s key="OBS_TOKEN"}{logger msg1="hello from the log"}\n{logger msg1=$s}{return value="ok"}',
  fails: '\n\n{$a|no_such_modifier}',
  echo: '{return value=$smarty.post}',
  query: '{return value=$smarty.get}',
  // A runtime error whose message repeats a request value ("function call 'q' not allowed").
  math: '{math equation=$smarty.get.q}',
};

const folders: string[] = [];
const running: ServeProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => stopServe(s)));
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

/** A site folder (smartcage site init) with the functions above as endpoints of API 1 and a secret. */
function siteFolder(parent: string, key: string): string {
  const dir = join(parent, key);
  const init = runBin(['site', 'init', dir]);
  if (init.status !== 0) throw new Error(init.stderr);
  const configFile = join(dir, 'site.json');
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as { site_key: string; endpoints: unknown[] };
  config.site_key = key;
  for (const name of Object.keys(FUNCTIONS)) {
    config.endpoints.push({ path: name, method: name === 'echo' ? 'POST' : 'GET', function: name, api_id: 1 });
    writeFileSync(join(dir, 'functions', `${name}.tpl`), FUNCTIONS[name]!);
  }
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  writeFileSync(
    join(dir, 'secrets.json'),
    JSON.stringify({ OBS_TOKEN: { value: `${CANARY}-secret`, hosts: ['api.example.com'] } }),
  );
  return dir;
}

interface Serving {
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** The JSON lines of stderr so far. */
  lines: () => Record<string, unknown>[];
}

async function serve(args: string[]): Promise<Serving> {
  const s = await startServe(['--port', '0', ...args]);
  running.push(s);
  const lines = () =>
    s
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { url: s.url, stdout: s.stdout, stderr: s.stderr, lines };
}

/** Waits until `test` holds of the log (lines are written asynchronously). */
async function until(
  s: Serving,
  test: (lines: Record<string, unknown>[]) => boolean,
): Promise<Record<string, unknown>[]> {
  for (let i = 0; i < 100; i++) {
    if (test(s.lines())) return s.lines();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the log never held what was expected:\n${s.stderr()}`);
}

describe('serve --site: logs', () => {
  let s: Serving;
  beforeAll(async () => {
    const parent = mkdtempSync(join(tmpdir(), 'smartcage-obs-'));
    folders.push(parent);
    s = await serve(['--site', siteFolder(parent, 'obs-one'), '--log-format', 'json']);
  }, 60_000);

  it('one access-log line per request: request id (kept when sane, sent back), site, endpoint without the query, status, ms, render CPU, memory class', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await fetch(`${s.url}/rcms-api/1/query?n=${i}`, { headers: { 'x-request-id': `probe-${i}` } });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-request-id')).toBe(`probe-${i}`);
      ids.push(`probe-${i}`);
    }
    // Not sane (a space, too long): replaced by a UUID, which the answer carries.
    const bad = await fetch(`${s.url}/rcms-api/1/query`, { headers: { 'x-request-id': 'two words' } });
    const made = bad.headers.get('x-request-id')!;
    expect(made).toMatch(/^[0-9a-f-]{36}$/);
    const long = await fetch(`${s.url}/rcms-api/1/query`, { headers: { 'x-request-id': 'x'.repeat(129) } });
    expect(long.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    ids.push(made);
    const lines = await until(s, (l) => ids.every((id) => l.some((x) => x.reqId === id)));
    for (const id of ids) {
      const access = lines.filter((l) => l.kind === 'access' && l.reqId === id);
      expect(access).toHaveLength(1);
      expect(access[0]).toMatchObject({
        level: 'info',
        msg: 'request',
        site: 'obs-one',
        method: 'GET',
        endpoint: '/rcms-api/1/query',
        status: 200,
        renders: 1,
        memoryMB: 128,
        remote: '127.0.0.1',
      });
      expect(access[0]!.ms).toBeGreaterThan(0);
      expect(access[0]!.cpuMs).toBeGreaterThan(0);
      expect(typeof access[0]!.time).toBe('string');
    }
  });

  it('a template error is one error line with its code and a one-line message, no stack; a 404 has no render', async () => {
    const r = await fetch(`${s.url}/rcms-api/1/fails`, { headers: { 'x-request-id': 'fails-1' } });
    expect(r.status).toBe(500);
    await fetch(`${s.url}/rcms-api/1/nothing`, { headers: { 'x-request-id': 'missing-1' } });
    const lines = await until(s, (l) => l.some((x) => x.reqId === 'fails-1') && l.some((x) => x.reqId === 'missing-1'));
    const failed = lines.find((l) => l.reqId === 'fails-1')!;
    expect(failed).toMatchObject({
      level: 'error',
      status: 500,
      errorCode: 'E_UNKNOWN_MODIFIER',
      endpoint: '/rcms-api/1/fails',
      site: 'obs-one',
    });
    expect(failed.error).toMatch(/^functions\/fails\.tpl:3: /);
    expect(String(failed.error)).not.toContain('\n');
    expect(JSON.stringify(failed)).not.toMatch(/stack| {4}at /);
    const missing = lines.find((l) => l.reqId === 'missing-1')!;
    expect(missing).toMatchObject({ level: 'info', status: 404, endpoint: '/rcms-api/1/nothing' });
    expect(missing.renders).toBeUndefined();
  });

  it('{logger} lines go to the same log with site, template, line and the request id', async () => {
    expect((await fetch(`${s.url}/rcms-api/1/logs`, { headers: { 'x-request-id': 'logs-1' } })).status).toBe(200);
    const lines = await until(s, (l) => l.filter((x) => x.reqId === 'logs-1').length >= 3);
    const own = lines.filter((l) => l.reqId === 'logs-1' && l.kind === 'template');
    expect(own.map((l) => [l.level, l.site, l.template, l.line, l.msg])).toEqual([
      ['info', 'obs-one', 'functions/logs.tpl', 1, 'hello from the log'],
      ['info', 'obs-one', 'functions/logs.tpl', 2, expect.stringMatching(/^\[secret:OBS_TOKEN:/)],
    ]);
  });

  it('an access-log line holds no field that the redaction censors (its lines skip the redaction)', () => {
    expect(REDACTED_FIELDS).toContain('cookie');
    expect(REDACTED_FIELDS).toContain('x-rcms-api-access-token');
    expect(ACCESS_FIELDS.filter((f) => REDACTED_FIELDS.has(f))).toEqual([]);
  });

  it('the canary: no secret value, cookie, Authorization header, access token, query or body value reaches the log', async () => {
    const headers = {
      cookie: `rcms_session=${CANARY}-cookie; other=${CANARY}-cookie2`,
      authorization: `Bearer ${CANARY}-authorization`,
      'proxy-authorization': `Basic ${CANARY}-proxy`,
      'x-rcms-api-access-token': `${CANARY}-token`,
      'x-request-id': 'canary-1',
    };
    await fetch(`${s.url}/rcms-api/1/logs?q=${CANARY}-query`, { headers });
    await fetch(`${s.url}/rcms-api/1/query?q=${CANARY}-query2`, {
      headers: { ...headers, 'x-request-id': 'canary-2' },
    });
    await fetch(`${s.url}/rcms-api/1/echo?x=${CANARY}-query3`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'x-request-id': 'canary-3' },
      body: JSON.stringify({ v: `${CANARY}-body` }),
    });
    await fetch(`${s.url}/rcms-api/1/fails?x=${CANARY}-query4`, {
      headers: { ...headers, 'x-request-id': 'canary-4' },
    });
    await fetch(`${s.url}/files/user/${CANARY}-path?x=${CANARY}-query5`, {
      headers: { ...headers, 'x-request-id': 'canary-5' },
    });
    const math = await fetch(`${s.url}/rcms-api/1/math?q=CANARYMATH`, {
      headers: { ...headers, 'x-request-id': 'canary-6' },
    });
    expect(math.status).toBe(500);
    expect(await math.text()).toContain('CANARYMATH');
    await until(s, (l) =>
      ['canary-1', 'canary-2', 'canary-3', 'canary-4', 'canary-5', 'canary-6'].every((id) =>
        l.some((x) => x.reqId === id && x.kind === 'access'),
      ),
    );
    const log = s.stderr() + s.stdout();
    // The one place a canary may appear: the path of the last request, which names no secret.
    const leaks = log
      .split('\n')
      .filter((l) => l.includes('CANARY') && !/"endpoint":"\/files\/user\/CANARY-6d1f0c-path"/.test(l));
    expect(leaks).toEqual([]);
    expect(log).not.toMatch(/Bearer|rcms_session=/);
    expect(s.lines().find((l) => l.reqId === 'canary-6')).toMatchObject({
      status: 500,
      errorCode: 'E_BAD_ATTRIBUTE',
      error: expect.stringMatching(/^functions\/math\.tpl:1: E_BAD_ATTRIBUTE while rendering/),
    });
  });
});

describe('serve without a site: the same access log and /metrics', () => {
  it('one access-log line per request of the form server, with its request id, and /metrics as Prometheus text', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'smartcage-obs-'));
    folders.push(cwd);
    const s = await serve(['--files', cwd, '--log-format', 'json']);
    const r = await fetch(`${s.url}/api/files?path=/files/user/&q=${CANARY}`, {
      headers: { 'x-request-id': 'forms-1' },
    });
    expect(r.headers.get('x-request-id')).toBe('forms-1');
    const lines = await until(s, (l) => l.some((x) => x.reqId === 'forms-1'));
    const access = lines.filter((l) => l.kind === 'access' && l.reqId === 'forms-1');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ msg: 'request', method: 'GET', endpoint: '/api/files', status: r.status });
    expect(access[0]!.site).toBeUndefined();
    expect(s.stderr()).not.toContain(CANARY);
    const m = await fetch(`${s.url}/metrics`);
    expect(m.status).toBe(200);
    expect(parsePrometheusText(await m.text()).has('smartcage_http_requests_total')).toBe(true);
  }, 60_000);
});

describe('serve --sites: metrics', () => {
  let s: Serving;
  let separate: Serving;
  beforeAll(async () => {
    const parent = mkdtempSync(join(tmpdir(), 'smartcage-obs-'));
    folders.push(parent);
    for (const key of ['alpha', 'beta', 'gamma']) siteFolder(parent, key);
    // Two processes: a scrape reaching either child must count the requests both answered.
    s = await serve(['--sites', parent, '--log-format', 'json', '--metrics-site-labels', '1', '--processes', '2']);
    separate = await serve(['--sites', parent, '--log-level', 'warn', '--metrics-port', '0', '--processes', '2']);
  }, 60_000);

  const scrape = async (url: string) => {
    const r = await fetch(url);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(await r.text());
  };

  it('/metrics parses as Prometheus text, with HELP and TYPE of every family, and its counters move with requests', async () => {
    const before = await scrape(`${s.url}/metrics`);
    for (const name of [
      'smartcage_renders_total',
      'smartcage_render_duration_seconds',
      'smartcage_render_cpu_seconds_total',
      'smartcage_http_requests_total',
      'smartcage_isolates_warm',
      'smartcage_isolates_evicted_total',
      'smartcage_render_queue_depth',
      'smartcage_db_pool_clients',
      'smartcage_batch_runs',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'process_resident_memory_bytes',
    ])
      expect(before.has(name), name).toBe(true);
    expect(before.get('smartcage_render_duration_seconds')!.type).toBe('histogram');
    expect(before.get('smartcage_renders_total')!.type).toBe('counter');
    expect(before.get('smartcage_isolates_warm')!.type).toBe('gauge');
    const ok0 = sampleValue(before, 'smartcage_renders_total', { result: 'ok', code: '' }) ?? 0;

    for (let i = 0; i < 3; i++) expect((await fetch(`${s.url}/sites/alpha/rcms-api/1/query`)).status).toBe(200);
    expect((await fetch(`${s.url}/sites/beta/rcms-api/1/query`)).status).toBe(200);
    expect((await fetch(`${s.url}/sites/beta/rcms-api/1/fails`)).status).toBe(500);

    const after = await scrape(`${s.url}/metrics`);
    expect(sampleValue(after, 'smartcage_renders_total', { result: 'ok', code: '' })).toBe(ok0 + 4);
    expect(sampleValue(after, 'smartcage_renders_total', { result: 'error', code: 'E_UNKNOWN_MODIFIER' })).toBe(1);
    expect(sampleValue(after, 'smartcage_render_duration_seconds_count', { result: 'ok' })).toBe(ok0 + 4);
    expect(sampleValue(after, 'smartcage_render_cpu_seconds_total')).toBeGreaterThan(0);
    expect(sampleValue(after, 'smartcage_http_requests_total', { method: 'GET', status: '500' })).toBe(1);
    expect(sampleValue(after, 'smartcage_isolates_warm')).toBeGreaterThanOrEqual(2);
    expect(sampleValue(after, 'smartcage_render_queue_depth')).toBe(0);
    expect(sampleValue(after, 'smartcage_db_pool_clients', { state: 'total' })).toBe(0);
    // --metrics-site-labels 1: alpha (3 renders) has its own series, beta is `other`; gamma never rendered.
    expect(sampleValue(after, 'smartcage_site_renders_total', { site: 'alpha' })).toBe(3);
    expect(sampleValue(after, 'smartcage_site_renders_total', { site: 'other' })).toBe(2);
    expect(sampleValue(after, 'smartcage_site_render_errors_total', { site: 'other' })).toBe(1);
    const text = await (await fetch(`${s.url}/metrics`)).text();
    expect(text).not.toMatch(/beta|gamma/);
  });

  it('by default no metric names a site; --metrics-port serves them on their own port and not on the serving one', async () => {
    const url = /metrics: (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(separate.stdout())?.[1];
    expect(url).toBeDefined();
    expect(url).not.toContain(separate.url);
    expect((await fetch(`${separate.url}/sites/gamma/rcms-api/1/query`)).status).toBe(200);
    const families = await scrape(url!);
    expect(sampleValue(families, 'smartcage_renders_total', { result: 'ok', code: '' })).toBe(1);
    expect(families.has('smartcage_site_renders_total')).toBe(false);
    const text = await (await fetch(url!)).text();
    expect(text).not.toMatch(/alpha|beta|gamma/);
    expect((await fetch(`${separate.url}/metrics`)).status).toBe(404);
    // --log-level warn: a 200 writes no line.
    expect(separate.lines().filter((l) => l.kind === 'access')).toEqual([]);
  });
});

describe('serve: observability options that are wrong', () => {
  it('a bad level, format, port or label count, or a metrics port in use, is one line and exit 3', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'smartcage-obs-'));
    folders.push(parent);
    const dir = siteFolder(parent, 'obs-bad');
    for (const [args, message] of [
      [['--log-level', 'loud'], '--log-level needs one of fatal, error, warn, info, debug, trace, silent, not "loud"'],
      [['--log-format', 'xml'], '--log-format needs one of json, pretty, not "xml"'],
      [['--metrics-port', '70000'], '--metrics-port needs a whole number from 0 to 65535, not "70000"'],
      [['--metrics-site-labels', 'many'], '--metrics-site-labels needs a whole number from 0 to 1000, not "many"'],
    ] as const) {
      const r = runBin(['serve', '--port', '0', '--site', dir, ...args]);
      expect(r.status).toBe(3);
      expect(r.stderr).toBe(`smartcage serve: ${message}\n`);
    }
    const { createServer } = await import('node:net');
    const taken = createServer();
    await new Promise<void>((ok) => taken.listen(0, '127.0.0.1', ok));
    const port = (taken.address() as { port: number }).port;
    try {
      const child = spawn(
        process.execPath,
        [BIN, 'serve', '--port', '0', '--site', dir, '--metrics-port', String(port)],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      const status = await new Promise<number | null>((done) => child.once('exit', done));
      expect(status).toBe(3);
      expect(err).toBe(`smartcage serve: --metrics-port ${port} is in use\n`);
      expect(out).toBe('');
    } finally {
      taken.close();
    }
  }, 60_000);
});
