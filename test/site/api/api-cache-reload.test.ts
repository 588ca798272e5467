/**
 * `serve --sites` picks up a changed site.json: a cache its function cannot have is refused
 * there too, and the last good site.json stays (D234); a cache it can have is used at once.
 */
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { initSite } from '../../../src/site/init.js';
import { SiteRegistry } from '../../../src/site/registry.js';
import { startSiteServer } from '../../../src/site/app/app.js';
import type { FormsServer } from '../../../src/forms-ui/server/app.js';
import { http } from '../support/http.js';

let root: string;
let registry: SiteRegistry;
let server: FormsServer;
const lines: string[] = [];
let stamp = Date.now();

function editSiteJson(fn: (c: { endpoints: Record<string, unknown>[] }) => void): void {
  const file = path.join(root, 'k1', 'site.json');
  const c = JSON.parse(readFileSync(file, 'utf8')) as { endpoints: Record<string, unknown>[] };
  fn(c);
  writeFileSync(file, JSON.stringify(c, null, 2));
  stamp += 5000;
  utimesSync(file, new Date(stamp), new Date(stamp));
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'smartcage-cache-reload-'));
  await initSite(path.join(root, 'k1'), { siteKey: 'k1' });
  writeFileSync(
    path.join(root, 'k1', 'functions', 'count.tpl'),
    '{update_counter value=1 topics_group_id=1 slug=7 ext_slug="view_count"}{return value="ok"}',
  );
  registry = SiteRegistry.load(root, { log: (l) => lines.push(l), reloadCheckMs: 0 });
  server = await startSiteServer({ port: 0, sites: registry, mode: 'multi' });
});
afterAll(async () => {
  await server.close();
  await registry.close();
  rmSync(root, { recursive: true, force: true });
});

it('refuses a cache on a writer at reload, keeping the last good site.json; takes one on a reader', async () => {
  const news = () => http(`${server.url}/sites/k1/rcms-api/1/news?cnt=1`);
  expect((await news()).headers['x-cache']).toBeUndefined();
  editSiteJson((c) =>
    c.endpoints.push({ path: 'count', method: 'GET', function: 'count', api_id: 1, cache: { seconds: 9 } }),
  );
  expect((await news()).status).toBe(200);
  expect((await http(`${server.url}/sites/k1/rcms-api/1/count`)).status).toBe(404);
  expect(lines).toContain(
    'site k1: site.json: endpoint /rcms-api/1/count cannot have a cache: functions/count.tpl calls {update_counter}, which is not a pure read; keeping the last good site.json',
  );
  editSiteJson((c) => {
    c.endpoints = c.endpoints.filter((e) => e.path !== 'count');
    c.endpoints[0]!.cache = { seconds: 9 };
  });
  expect((await news()).headers['x-cache']).toBe('miss');
  expect((await news()).headers['x-cache']).toBe('hit');
});
