/**
 * The sites of `serve --sites` (src/site/registry.ts) over real HTTP: opened at first use and
 * closed when idle, one PostgreSQL pool per URL, a site that cannot open failing alone, each site
 * kept to its share while another floods, and site.json / functions / templates / new folders
 * picked up without a restart.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { initSite } from '../../src/site/init.js';
import { SiteRegistry, SiteFolderError, type RegistryOptions } from '../../src/site/registry.js';
import { startSiteServer } from '../../src/site/app/app.js';
import type { FormsServer } from '../../src/forms-ui/server/app.js';
import { BACKENDS, eachBackend } from './support/backends.js';

const SLOW = '{section name=i loop=400000}{/section}{return value="slow"}';

function editJson(file: string, fn: (c: Record<string, unknown>) => void): void {
  const c = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  fn(c);
  writeFileSync(file, JSON.stringify(c, null, 2));
  // A new mtime even within the file system's clock granularity.
  const t = new Date(Date.now() + 2000);
  utimesSync(file, t, t);
}

async function get(url: string): Promise<{ status: number; body: string; retryAfter: string | null }> {
  const r = await fetch(url);
  return { status: r.status, body: await r.text(), retryAfter: r.headers.get('retry-after') };
}

eachBackend('the sites of serve --sites', (backend) => {
  let root: string;
  let keys: string[];
  const opened: { registry?: SiteRegistry; server?: FormsServer }[] = [];

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'smartcage-sites-'));
    const suffix = Math.random().toString(36).slice(2, 8);
    keys = [`ra${suffix}`, `rb${suffix}`];
    for (const key of keys) {
      await initSite(path.join(root, key), { siteKey: key, database: backend.url });
      writeFileSync(path.join(root, key, 'functions', 'slow.tpl'), SLOW);
      editJson(path.join(root, key, 'site.json'), (c) =>
        (c.endpoints as unknown[]).push({ path: 'slow', method: 'GET', function: 'slow', api_id: 1 }),
      );
    }
  }, 60_000);

  afterEach(async () => {
    for (const o of opened.splice(0)) {
      await o.server?.close();
      await o.registry?.close();
    }
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  async function serve(opts: Partial<RegistryOptions> = {}, dir = root) {
    const lines: string[] = [];
    const registry = SiteRegistry.load(dir, { log: (l) => lines.push(l), ...opts });
    const server = await startSiteServer({ port: 0, sites: registry, mode: 'multi' });
    opened.push({ registry, server });
    const at = (key: string, p: string) => `${server.url}/sites/${key}/${p}`;
    return { registry, server, lines, at };
  }

  it('opens a site at its first request and closes it once idle; sites on one PostgreSQL URL share one pool', async () => {
    // Idle time is told by the clock sweep() is given: no wait, and the registry's own sweeps (a
    // minute of idleness) stay out of the way.
    const { registry, at } = await serve({ idleMs: 60_000 });
    expect(registry.openSites).toBe(0);
    expect((await get(at(keys[0]!, 'rcms-api/1/news'))).status).toBe(200);
    expect(registry.openSites).toBe(1);
    expect((await get(at(keys[1]!, 'rcms-api/1/news'))).status).toBe(200);
    expect(registry.openSites).toBe(2);
    expect(registry.pgPools).toBe(backend.url ? 1 : 0);
    expect(registry.engines.pids()).toHaveLength(1);
    expect(registry.sweep(Date.now() + 30_000)).toBe(0);
    expect(registry.openSites).toBe(2);
    registry.sweep(Date.now() + 60_000);
    expect(registry.openSites).toBe(0);
    // The handles close in the background; the last one of a URL ends its pool.
    await vi.waitFor(() => expect(registry.pgPools).toBe(0), { timeout: 10_000 });
    // Opened again on the next request.
    expect(JSON.parse((await get(at(keys[0]!, 'rcms-api/1/news'))).body).list.length).toBeGreaterThan(0);
  }, 60_000);

  it('keeps each site to its share: a flood of one is refused past its queue (429, Retry-After) while the other answers', async () => {
    const { at } = await serve({ maxInFlight: 2, maxQueued: 3 });
    const flood = Array.from({ length: 24 }, () => get(at(keys[0]!, 'rcms-api/1/slow')));
    const other: number[] = [];
    for (let i = 0; i < 5; i++) other.push((await get(at(keys[1]!, 'rcms-api/1/news'))).status);
    const flooded = await Promise.all(flood);
    expect(other).toEqual([200, 200, 200, 200, 200]);
    const refused = flooded.filter((r) => r.status === 429);
    expect(flooded.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(5);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.retryAfter).toBe('1');
    expect(JSON.parse(refused[0]!.body).errors[0].code).toBe('tenant_busy');
  }, 120_000);

  it('picks up a changed site.json, custom function and template; a broken site.json keeps the last good one, logged once', async () => {
    const { at, lines } = await serve({ reloadCheckMs: 0 });
    const key = keys[1]!;
    const dir = path.join(root, key);
    expect((await get(at(key, 'rcms-api/1/fresh'))).status).toBe(404);
    writeFileSync(
      path.join(dir, 'functions', 'fresh.tpl'),
      '{include file="fresh-part.tpl"}{return value=$smarty.const.ROOT_URL}',
    );
    writeFileSync(path.join(dir, 'templates', 'fresh-part.tpl'), 'part');
    editJson(path.join(dir, 'site.json'), (c) => {
      (c.endpoints as unknown[]).push({ path: 'fresh', method: 'GET', function: 'fresh', api_id: 1 });
      c.root_url = 'http://fresh.example';
    });
    expect(JSON.parse((await get(at(key, 'rcms-api/1/fresh'))).body)).toBe('http://fresh.example');
    expect(lines).toContain(`site ${key}: site.json reloaded`);
    // The function changes: the next request runs the new one.
    writeFileSync(path.join(dir, 'functions', 'fresh.tpl'), '{return value="second"}');
    expect(JSON.parse((await get(at(key, 'rcms-api/1/fresh'))).body)).toBe('second');
    // An included template changes: the compile cache sees it.
    writeFileSync(
      path.join(dir, 'functions', 'fresh.tpl'),
      '{capture assign=p}{include file="fresh-part.tpl"}{/capture}{return value=$p}',
    );
    writeFileSync(path.join(dir, 'templates', 'fresh-part.tpl'), 'part two');
    expect(JSON.parse((await get(at(key, 'rcms-api/1/fresh'))).body)).toBe('part two');
    // Broken: the last good one stays, and the reason is logged once.
    const good = readFileSync(path.join(dir, 'site.json'), 'utf8');
    writeFileSync(path.join(dir, 'site.json'), '{ "site_key": ');
    utimesSync(path.join(dir, 'site.json'), new Date(Date.now() + 4000), new Date(Date.now() + 4000));
    expect((await get(at(key, 'rcms-api/1/fresh'))).status).toBe(200);
    expect((await get(at(key, 'rcms-api/1/fresh'))).status).toBe(200);
    const broken = lines.filter((l) => l.includes('keeping the last good site.json'));
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatch(new RegExp(`^site ${key}: .*site\\.json: not valid JSON`));
    writeFileSync(path.join(dir, 'site.json'), good);
    utimesSync(path.join(dir, 'site.json'), new Date(Date.now() + 6000), new Date(Date.now() + 6000));
  }, 60_000);

  it('a site whose database cannot open answers 503 site_unavailable; the others are not touched', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-sites-'));
    try {
      cpSync(path.join(root, keys[0]!), path.join(dir, keys[0]!), { recursive: true });
      cpSync(path.join(root, keys[1]!), path.join(dir, 'broken'), { recursive: true });
      editJson(path.join(dir, 'broken', 'site.json'), (c) => {
        c.site_key = 'broken';
        c.database = 'postgres://nobody:none@127.0.0.1:1/none';
      });
      const { at, lines } = await serve({}, dir);
      const r = await get(at('broken', 'rcms-api/1/news'));
      expect(r.status).toBe(503);
      expect(JSON.parse(r.body).errors[0].code).toBe('site_unavailable');
      expect(r.retryAfter).toBe('5');
      expect(lines.some((l) => l.startsWith('site broken: cannot be opened: '))).toBe(true);
      expect((await get(at(keys[0]!, 'rcms-api/1/news'))).status).toBe(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the sites folder', () => {
  it('never runs more than maxInFlight requests of a site at once; the waiting ones run in order', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-sites-'));
    const registry = SiteRegistry.load((await initSite(path.join(dir, 'one'), { siteKey: 'one' }), dir), {
      maxInFlight: 2,
      maxQueued: 20,
    });
    try {
      let running = 0;
      let most = 0;
      const order: number[] = [];
      const all = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          registry.use('one', async () => {
            most = Math.max(most, ++running);
            await new Promise((r) => setTimeout(r, 5));
            order.push(i);
            running--;
          }),
        ),
      );
      expect(all.every((u) => u.ok)).toBe(true);
      expect(most).toBe(2);
      expect(order.slice(2)).toEqual([...order.slice(2)].sort((a, b) => a - b));
    } finally {
      await registry.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a broken site.json at start is one line; a new site folder appears on rescan (SIGHUP)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-sites-'));
    try {
      await initSite(path.join(dir, 'one'), { siteKey: 'one', database: BACKENDS[0]!.url });
      writeFileSync(path.join(dir, 'two.json'), '');
      const registry = SiteRegistry.load(dir);
      try {
        expect(registry.keys()).toEqual(['one']);
        cpSync(path.join(dir, 'one'), path.join(dir, 'two'), { recursive: true });
        editJson(path.join(dir, 'two', 'site.json'), (c) => (c.site_key = 'two'));
        expect(registry.rescan().added).toEqual(['two']);
        expect(registry.keys()).toEqual(['one', 'two']);
      } finally {
        await registry.close();
      }
      writeFileSync(path.join(dir, 'two', 'site.json'), '{');
      expect(() => SiteRegistry.load(dir)).toThrow(SiteFolderError);
      expect(() => SiteRegistry.load(dir)).toThrow(/two[/\\]site\.json: not valid JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
