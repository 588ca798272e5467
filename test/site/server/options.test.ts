/**
 * The options table of `smartcage serve` (src/site/server/options.ts): flag > environment >
 * config file > default, each bad value one ServeConfigError naming where it came from, and the
 * README's table is the one the code derives.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  envName,
  resolveServeOptions,
  SERVE_OPTIONS,
  serveOptionsHelp,
  serveOptionsMarkdown,
  ServeConfigError,
} from '../../../src/site/server/options.js';
import { ROOT } from '../../support/bin.js';
import { DEFAULT_POOL } from '../../../src/sandbox/pool.js';
import { tenancyOptions } from '../../../src/site/server/tenancy-options.js';
import { DEFAULT_CACHE_LIMITS } from '../../../src/site/api/response-cache.js';

const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-options-'));
const configFile = (json: unknown) => {
  const f = path.join(dir, `c${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(f, typeof json === 'string' ? json : JSON.stringify(json));
  return f;
};
const error = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ServeConfigError);
    return (e as Error).message;
  }
  throw new Error('no error');
};

describe('serve options', () => {
  it('defaults when nothing is given', () => {
    const c = resolveServeOptions({}, {}, dir);
    expect(c).toEqual({
      host: '127.0.0.1',
      port: 8080,
      site: undefined,
      sites: undefined,
      files: undefined,
      schema: [],
      processes: undefined,
      affinity: 'on',
      'drain-timeout': 30,
      'pg-pool-max': 10,
      'site-idle-ms': 120_000,
      'tenant-max-inflight': 4,
      'tenant-max-queued': 32,
      'sandbox-workers': undefined,
      'isolate-idle-ms': undefined,
      'isolate-heap-budget-mb': undefined,
      'isolates-max': undefined,
      'tenants-per-isolate': undefined,
      'isolate-groups': undefined,
      'api-cache-entries': 10_000,
      'api-cache-mb': 64,
      'api-cache-site-percent': 10,
      'api-cache-entry-kb': 1024,
      'log-level': 'info',
      'log-format': undefined,
      'metrics-port': undefined,
      'metrics-site-labels': 0,
      config: undefined,
    });
  });

  it("the isolate options unset leave the sandbox pool's defaults, which the docs state", () => {
    expect(SERVE_OPTIONS['isolate-idle-ms'].defaultText).toBe(String(DEFAULT_POOL.isolateIdleMs));
    expect(SERVE_OPTIONS['isolate-heap-budget-mb'].defaultText).toBe(String(DEFAULT_POOL.workerHeapBudgetMB));
    expect(SERVE_OPTIONS['isolates-max'].defaultText).toBe(String(DEFAULT_POOL.workerMaxIsolates));
    expect(SERVE_OPTIONS['tenants-per-isolate'].defaultText).toBe(String(DEFAULT_POOL.tenantsPerIsolate));
    expect(tenancyOptions(resolveServeOptions({}, {}, dir)).engine).toEqual({ pool: {} });
    expect(tenancyOptions(resolveServeOptions({ 'isolates-max': '9' }, {}, dir))).toMatchObject({
      pgPoolMax: 10,
      engine: { pool: { workerMaxIsolates: 9 } },
    });
    // The engines' own default (src/site/engines.ts) unless asked: one worker each.
    expect(tenancyOptions(resolveServeOptions({}, { SMARTCAGE_SANDBOX_WORKERS: '0' }, dir)).engine).toEqual({
      workers: 0,
      pool: {},
    });
    // A child of --processes N, which its primary restarts: in-process unless asked (D200).
    expect(tenancyOptions(resolveServeOptions({}, {}, dir), true).engine).toEqual({ workers: 0, pool: {} });
    expect(tenancyOptions(resolveServeOptions({ 'sandbox-workers': '2' }, {}, dir), true).engine).toEqual({
      workers: 2,
      pool: {},
    });
  });

  it('the tenancy, log and metrics options come from a flag, a variable or the config file too', () => {
    const file = configFile({ 'pg-pool-max': 3, 'log-level': 'warn', 'metrics-port': 9464, 'isolates-max': 50 });
    const c = resolveServeOptions(
      { 'tenant-max-queued': '0', 'log-format': 'json' },
      { SMARTCAGE_CONFIG: file, SMARTCAGE_SITE_IDLE_MS: '5000', SMARTCAGE_PG_POOL_MAX: '7' },
      dir,
    );
    expect(c['tenant-max-queued']).toBe(0);
    expect(c['log-format']).toBe('json');
    expect(c['site-idle-ms']).toBe(5000);
    expect(c['pg-pool-max']).toBe(7);
    expect(c['log-level']).toBe('warn');
    expect(c['metrics-port']).toBe(9464);
    expect(c['isolates-max']).toBe(50);
    expect(error(() => resolveServeOptions({ 'site-idle-ms': '10' }, {}, dir))).toBe(
      '--site-idle-ms needs a whole number from 1000 to 2147483647, not "10"',
    );
    expect(error(() => resolveServeOptions({}, { SMARTCAGE_LOG_LEVEL: 'loud' }, dir))).toBe(
      'SMARTCAGE_LOG_LEVEL needs one of fatal, error, warn, info, debug, trace, silent, not "loud"',
    );
    const badLevel = configFile({ 'log-format': 3 });
    expect(error(() => resolveServeOptions({ config: badLevel }, {}, dir))).toBe(
      `${badLevel}: "log-format" needs a string`,
    );
    expect(error(() => resolveServeOptions({ 'tenant-max-inflight': '0' }, {}, dir))).toMatch(
      /^--tenant-max-inflight needs a whole number from 1 /,
    );
  });

  it("the API cache's bounds: from a flag, a variable or the file, within bounds, an entry within a site's share", () => {
    const file = configFile({ 'api-cache-mb': 16 });
    const c = resolveServeOptions(
      { 'api-cache-entries': '500' },
      { SMARTCAGE_CONFIG: file, SMARTCAGE_API_CACHE_SITE_PERCENT: '25', SMARTCAGE_API_CACHE_ENTRY_KB: '64' },
      dir,
    );
    expect(tenancyOptions(c).apiCache).toEqual({
      maxEntries: 500,
      maxBytes: 16 * 1024 * 1024,
      maxSiteEntries: 125,
      maxSiteBytes: 4 * 1024 * 1024,
      maxEntryBytes: 64 * 1024,
    });
    // The defaults are the cache's own.
    expect(tenancyOptions(resolveServeOptions({}, {}, dir)).apiCache).toEqual(DEFAULT_CACHE_LIMITS);
    expect(error(() => resolveServeOptions({ 'api-cache-entries': '0' }, {}, dir))).toBe(
      '--api-cache-entries needs a whole number from 1 to 10000000, not "0"',
    );
    expect(error(() => resolveServeOptions({}, { SMARTCAGE_API_CACHE_SITE_PERCENT: '101' }, dir))).toBe(
      'SMARTCAGE_API_CACHE_SITE_PERCENT needs a whole number from 1 to 100, not "101"',
    );
    expect(error(() => resolveServeOptions({ 'api-cache-mb': '1', 'api-cache-site-percent': '50' }, {}, dir))).toBe(
      "api-cache-entry-kb 1024 is more than a site's share of the API cache (50 % of 1 MB: 512 KB)",
    );
    expect(resolveServeOptions({ 'api-cache-mb': '1', 'api-cache-entry-kb': '100' }, {}, dir)['api-cache-mb']).toBe(1);
  });

  it('takes a flag over the environment, the environment over the file, the file over the default', () => {
    const file = configFile({ port: 1001, host: '0.0.0.0', 'drain-timeout': 5, sites: 'tenants' });
    const env = { SMARTCAGE_CONFIG: file, SMARTCAGE_PORT: '1002', SMARTCAGE_DRAIN_TIMEOUT: '7' };
    const c = resolveServeOptions({ port: '1003' }, env, dir);
    expect(c.port).toBe(1003);
    expect(c['drain-timeout']).toBe(7);
    expect(c.host).toBe('0.0.0.0');
    // A path in the file is relative to the file's folder.
    expect(c.sites).toBe(path.join(dir, 'tenants'));
    expect(c.processes).toBeUndefined();
    expect(resolveServeOptions({}, env, dir).port).toBe(1002);
    expect(resolveServeOptions({}, { SMARTCAGE_CONFIG: file }, dir).port).toBe(1001);
    // A flag --config wins over SMARTCAGE_CONFIG.
    expect(resolveServeOptions({ config: configFile({ port: 9 }) }, { SMARTCAGE_CONFIG: file }, dir).port).toBe(9);
    // An empty variable is as good as unset.
    expect(resolveServeOptions({}, { SMARTCAGE_PORT: '' }, dir).port).toBe(8080);
  });

  it('reads lists: a repeated flag, a path-delimited variable, a JSON array', () => {
    expect(resolveServeOptions({ schema: ['a.json', 'b.json'] }, {}, dir).schema).toEqual(['a.json', 'b.json']);
    expect(
      resolveServeOptions({}, { SMARTCAGE_SCHEMA: ['a.json', 'b.json'].join(path.delimiter) }, dir).schema,
    ).toHaveLength(2);
    expect(resolveServeOptions({}, { SMARTCAGE_CONFIG: configFile({ schema: ['x.json'] }) }, dir).schema).toEqual([
      path.join(dir, 'x.json'),
    ]);
    expect(resolveServeOptions({}, { SMARTCAGE_PROCESSES: 'auto' }, dir).processes).toBe('auto');
    expect(resolveServeOptions({ processes: '3' }, {}, dir).processes).toBe(3);
    expect(resolveServeOptions({}, { SMARTCAGE_AFFINITY: 'off' }, dir).affinity).toBe('off');
    expect(resolveServeOptions({}, { SMARTCAGE_CONFIG: configFile({ affinity: 'off' }) }, dir).affinity).toBe('off');
  });

  it('says in one line what is wrong and where the value came from', () => {
    expect(error(() => resolveServeOptions({ port: '70000' }, {}, dir))).toBe(
      '--port needs a whole number from 0 to 65535, not "70000"',
    );
    expect(error(() => resolveServeOptions({}, { SMARTCAGE_PORT: 'http' }, dir))).toBe(
      'SMARTCAGE_PORT needs a whole number from 0 to 65535, not "http"',
    );
    expect(error(() => resolveServeOptions({}, { SMARTCAGE_DRAIN_TIMEOUT: '-1' }, dir))).toMatch(
      /^SMARTCAGE_DRAIN_TIMEOUT needs a number of seconds/,
    );
    expect(error(() => resolveServeOptions({ processes: '0' }, {}, dir))).toMatch(
      /^--processes needs a whole number from 1 to 256/,
    );
    expect(error(() => resolveServeOptions({ affinity: 'yes' }, {}, dir))).toBe(
      '--affinity needs one of on, off, not "yes"',
    );
    const unknown = configFile({ prot: 80 });
    expect(error(() => resolveServeOptions({ config: unknown }, {}, dir))).toBe(
      `config file ${unknown}: unknown key "prot" (the keys are host, port, site, sites, files, schema, processes, affinity, drain-timeout, pg-pool-max, site-idle-ms, tenant-max-inflight, tenant-max-queued, sandbox-workers, isolate-idle-ms, isolate-heap-budget-mb, isolates-max, tenants-per-isolate, isolate-groups, api-cache-entries, api-cache-mb, api-cache-site-percent, api-cache-entry-kb, log-level, log-format, metrics-port, metrics-site-labels)`,
    );
    const nested = configFile({ config: 'other.json' });
    expect(error(() => resolveServeOptions({ config: nested }, {}, dir))).toMatch(/unknown key "config"/);
    const notJson = configFile('{port: 1}');
    expect(error(() => resolveServeOptions({ config: notJson }, {}, dir))).toMatch(
      new RegExp(`^config file ${notJson} is not JSON \\(`),
    );
    const array = configFile([1]);
    expect(error(() => resolveServeOptions({ config: array }, {}, dir))).toBe(
      `config file ${array} must hold a JSON object of options`,
    );
    const badType = configFile({ port: '80x' });
    expect(error(() => resolveServeOptions({ config: badType }, {}, dir))).toBe(
      `${badType}: "port" needs a whole number from 0 to 65535, not "80x"`,
    );
    expect(error(() => resolveServeOptions({ config: path.join(dir, 'none.json') }, {}, dir))).toMatch(
      /cannot be read \(ENOENT\)$/,
    );
    for (const m of [unknown, notJson].map((f) => error(() => resolveServeOptions({ config: f }, {}, dir))))
      expect(m).not.toContain('\n');
  });

  it('derives --help and the variables from the table, one entry per option', () => {
    const help = serveOptionsHelp().join('\n');
    for (const name of Object.keys(SERVE_OPTIONS)) {
      expect(help).toContain(`--${name} `);
      expect(help).toContain(envName(name));
    }
    expect(envName('drain-timeout')).toBe('SMARTCAGE_DRAIN_TIMEOUT');
  });

  it("the README's table is the table (regenerate it from serveOptionsMarkdown() when a row changes)", () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const m = /<!-- serve-options:[^>]*-->\n([\s\S]*?)\n<!-- \/serve-options -->/.exec(readme);
    expect(m?.[1]).toBe(serveOptionsMarkdown());
  });
});
