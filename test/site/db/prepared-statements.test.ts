/**
 * PostgreSQL keeps the few texts an adapter marks `prepared` prepared on each pooled connection
 * (D368): a Topics list's statement, through every wrapper a site puts around its database, is a
 * named statement the server has planned once; once the server has lost a name, the list still
 * answers and nothing is named again (prepared-names.test.ts: which texts get a name).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_URL } from '../support/backends.js';
import { initSite } from '../../../src/site/init.js';
import { SiteRegistry } from '../../../src/site/registry.js';
import type { Site } from '../../../src/site/open-site.js';
import { contentAdapters } from '../../../src/site/adapters/content.js';
import { topicList } from '../../../src/host-plugins/content/topics-query.js';
import { runLater } from '../../../src/host-api/now-or-later.js';
import { withRenderSignal } from '../../../src/host-api/render-signal.js';

(PG_URL ? describe : describe.skip)('a Topics list on PostgreSQL', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-prepared-'));
  let registry: SiteRegistry;
  let site: Site;
  beforeAll(async () => {
    await initSite(path.join(dir, 'site'), { siteKey: `p${Date.now().toString(36)}`, database: PG_URL! });
    // An endpoint that keeps answers: the site's database is then wrapped to move the content
    // version (db/content-version.ts), one more wrapper a statement's options must pass.
    const file = path.join(dir, 'site', 'site.json');
    const config = JSON.parse(readFileSync(file, 'utf8')) as { endpoints: object[] };
    config.endpoints.push({ path: 'news-cached', method: 'GET', function: 'news', api_id: 1, cache: { seconds: 60 } });
    writeFileSync(file, JSON.stringify(config, null, 2));
    // One connection: what the list ran on is what the check below asks about.
    registry = SiteRegistry.folder(path.join(dir, 'site'), { pgPoolMax: 1 });
    site = await registry.open(registry.keys()[0]!);
  });
  afterAll(async () => {
    await registry?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const read = { lang: 'ja', render: { now: Math.floor(Date.now() / 1000), timezone: 'Asia/Tokyo', lang: 'ja' } };
  const query = { groupId: 1, perPage: 10, page: 1, categoryId: null };

  it('runs as a statement the server keeps prepared, inside a render and outside one', async () => {
    // The renders' adapters, and adapters over the site's database (every wrapper it has).
    const ours = async () =>
      (
        await site.db.all<{ statement: string; runs: number }>(
          "SELECT statement, generic_plans + custom_plans AS runs FROM pg_prepared_statements WHERE name LIKE 'smartcage\\_%'",
        )
      ).map((k) => ({ ...k, runs: Number(k.runs) }));
    for (const content of [site.host.content!, contentAdapters(site).content!]) {
      const list = () => runLater(topicList(content, query, read));
      const ran = (await ours())[0]?.runs ?? 0;
      const outside = await list();
      const inside = await withRenderSignal(new AbortController().signal, list);
      expect(inside.list.size).toBeGreaterThan(0);
      expect(inside.list.size).toBe(outside.list.size);
      const kept = await ours();
      expect(kept).toHaveLength(1);
      expect(kept[0]!.statement).toMatch(/^WITH page AS/);
      // Both lists ran it by its name.
      expect(kept[0]!.runs).toBe(ran + 2);
    }
  });

  it('answers the same once the server lost its names, and names nothing after', async () => {
    const list = () => runLater(topicList(site.host.content!, query, read));
    const before = await list();
    // What a pooler or another client may do to a session behind pg's back.
    await site.db.run('DEALLOCATE ALL');
    expect(await list()).toEqual(before);
    await withRenderSignal(new AbortController().signal, list);
    const kept = await site.db.all('SELECT name FROM pg_prepared_statements');
    expect(kept).toEqual([]);
  });
});
