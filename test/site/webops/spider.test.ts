/**
 * {kick_spider} on the sample site, on both backends: settings and history in the site store,
 * the crawl over a test egress guard to a local web site on 127.0.0.2 (site.test, with links to
 * other.test and docs.test).
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Site } from '../../../src/site/open-site.js';
import { MAX_SPIDER_PAGE_BYTES, MAX_SPIDER_PAGES, crawl } from '../../../src/host-plugins/webops/crawl.js';
import { MAX_SPIDER_TARGETS } from '../../../src/host-plugins/webops/kick_spider.js';
import type { BridgeCall } from '../../../src/host-plugins/plugin-contract.js';
import { templateError } from '../../support/engine.js';
import { eachBackend, sampleSite } from '../support/backends.js';
import { moduleBatch } from '../../../src/site/batches/module-batches.js';
import { siteEngine, startWebServer, type SiteRenderer, type WebServer } from './support.js';

let web: WebServer;
beforeAll(async () => {
  web = await startWebServer();
});
afterAll(() => web.close());

interface PageRow {
  url: string;
  depth: number;
  status: number;
  title: string;
  error: string;
  bytes: number;
}

eachBackend('{kick_spider}', (backend) => {
  let site: Site & { done(): Promise<void> };
  let other: Site & { done(): Promise<void> };
  let r: SiteRenderer;
  let short: SiteRenderer;
  beforeAll(async () => {
    site = await sampleSite(backend);
    other = await sampleSite(backend);
    // The crawl runs in the render in a batch; a web render queues it (the last test).
    r = siteEngine(site, web, undefined, 'batch');
    short = siteEngine(site, web, 1500, 'batch');
    // The worker's start is not the crawl's to pay for.
    await Promise.all([r.render('warm'), short.render('warm')]);
  });
  afterAll(async () => {
    await r.close();
    await short.close();
    await other.done();
    await site.done();
  });
  beforeEach(async () => {
    await site.db.run(
      'UPDATE spider_settings SET start_urls = ?, allowed_origins = ?, max_pages = 50, max_depth = 2 WHERE tenant = ? AND spider_settings_id = 1',
      [JSON.stringify([web.url('site.test', '/site/')]), '[]', site.tenant],
    );
  });

  const pages = (id: number): Promise<PageRow[]> =>
    site.db.all<PageRow>(
      'SELECT url, depth, status, title, error, bytes FROM spider_pages WHERE tenant = ? AND spider_history_id = ? ORDER BY seq',
      [site.tenant, id],
    );
  const history = (id: number) =>
    site.db.get<{
      status: string;
      stop_reason: string;
      pages: number;
      rerun_of: number | null;
      target_urls: string | null;
      spider_settings_id: number;
    }>(
      'SELECT status, stop_reason, pages, rerun_of, target_urls, spider_settings_id FROM spider_history WHERE tenant = ? AND spider_history_id = ?',
      [site.tenant, id],
    );
  const kick = async (attrs = '', vars: Record<string, unknown> = {}): Promise<number> =>
    Number((await r.render(`{kick_spider var=h spider_settings_id=1 ${attrs}}{$h}`, vars)).output);
  const path = (u: string): string => new URL(u).pathname;

  it('crawls the start URLs breadth first within their origin and the depth; var receives the history id', async () => {
    const before = web.hits.length;
    const id = await kick();
    expect(id).toBeGreaterThan(0);
    const got = await pages(id);
    expect(got.map((p) => [path(p.url), p.depth])).toEqual([
      ['/site/', 0],
      ['/site/a', 1],
      ['/site/b', 1],
      ['/site/c', 2],
      ['/site/redirect', 2],
      ['/site/plain', 2],
      ['/site/big', 2],
      ['/site/missing', 2],
    ]);
    const byPath = new Map(got.map((p) => [path(p.url), p]));
    expect(byPath.get('/site/a')!.title).toBe('Page A');
    // A redirect out of the origins is recorded, not read; an oversized page is refused; a 404 is a status.
    expect(byPath.get('/site/redirect')!.error).toBe('E_PERMISSION_DENIED');
    // One MAX_SPIDER_PAGE_BYTES and 10 bytes: refused, although the guard's own cap is 10 MiB.
    expect(MAX_SPIDER_PAGE_BYTES).toBe(1024 * 1024);
    expect(byPath.get('/site/big')).toMatchObject({ status: 0, error: 'E_HTTP_LIMIT' });
    expect(byPath.get('/site/missing')!.status).toBe(404);
    expect(
      web.hits.slice(before).some((h) => h.path === '/site/never' || h.path === '/x' || h.path === '/site/d'),
    ).toBe(false);
    expect(await history(id)).toMatchObject({ status: 'done', pages: 8, rerun_of: null, target_urls: null });
    expect(await kick()).toBe(id + 1);
  });

  it('follows links into the allowed origins; stops at max_pages', async () => {
    await site.db.run(
      'UPDATE spider_settings SET allowed_origins = ?, max_depth = 1 WHERE tenant = ? AND spider_settings_id = 1',
      [JSON.stringify([web.url('docs.test', '')]), site.tenant],
    );
    const id = await kick();
    expect((await pages(id)).map((p) => new URL(p.url).host.split(':')[0] + path(p.url))).toEqual([
      'site.test/site/',
      'site.test/site/a',
      'site.test/site/b',
      'docs.test/docs/',
    ]);
    await site.db.run('UPDATE spider_settings SET max_pages = 2 WHERE tenant = ? AND spider_settings_id = 1', [
      site.tenant,
    ]);
    const capped = await kick();
    expect((await pages(capped)).length).toBe(2);
    expect(await history(capped)).toMatchObject({ status: 'stopped', stop_reason: 'max pages', pages: 2 });
  });

  it("target_urls are crawled instead of the start URLs, and must lie in the settings' origins", async () => {
    const id = await kick('target_urls=$t', { t: [web.url('site.test', '/site/c')] });
    expect((await pages(id)).map((p) => path(p.url))).toEqual(['/site/c', '/site/d']);
    expect(JSON.parse((await history(id))!.target_urls!)).toEqual([web.url('site.test', '/site/c')]);
    const denied = await templateError(
      r.render('x\n{kick_spider var=h spider_settings_id=1 target_urls=$t}', { t: [web.url('other.test', '/x')] }),
    );
    expect([denied.code, denied.line]).toEqual(['E_PERMISSION_DENIED', 2]);
    expect(
      (
        await templateError(
          r.render('{kick_spider var=h spider_settings_id=1 target_urls=$t}', { t: ['file:///etc/passwd'] }),
        )
      ).code,
    ).toBe('E_BAD_URL');
  });

  it("spider_history_id re-executes that run (its target URLs) as a new history; another settings' run is E_NOT_FOUND", async () => {
    const first = await kick('target_urls=$t', { t: [web.url('site.test', '/site/d')] });
    const again = await kick(`spider_history_id=${first}`);
    expect(again).toBe(first + 1);
    expect(await history(again)).toMatchObject({ rerun_of: first, status: 'done' });
    expect((await pages(again)).map((p) => path(p.url))).toEqual(['/site/d']);
    await site.db.run(
      "INSERT INTO spider_history (tenant, spider_history_id, spider_settings_id, status, started_at) VALUES (?, 9000, 2, 'done', 0)",
      [site.tenant],
    );
    expect(
      (await templateError(r.render('{kick_spider var=h spider_settings_id=1 spider_history_id=9000}'))).code,
    ).toBe('E_NOT_FOUND');
    expect(
      (await templateError(r.render('{kick_spider var=h spider_settings_id=1 spider_history_id=99999}'))).code,
    ).toBe('E_NOT_FOUND');
  });

  it("goes only where the guard lets it: the sample's localhost start URL and a private address are stored as refused", async () => {
    await site.db.run(
      'UPDATE spider_settings SET start_urls = ?, allowed_origins = ? WHERE tenant = ? AND spider_settings_id = 1',
      [JSON.stringify([`${site.config.root_url}/`]), JSON.stringify([`http://127.0.0.1:${web.port}`]), site.tenant],
    );
    const before = web.hits.length;
    const id = await kick();
    expect((await pages(id)).map((p) => [p.status, p.error])).toEqual([[0, 'E_SSRF_DENIED']]);
    const other = await kick('target_urls=$t', { t: [`http://127.0.0.1:${web.port}/site/`] });
    expect((await pages(other)).map((p) => [p.status, p.error])).toEqual([[0, 'E_SSRF_DENIED']]);
    expect(web.hits.length).toBe(before);
  });

  it('settings that are not Enabled are not crawled: var false, a warning, no history', async () => {
    const before = web.hits.length;
    const count = async (): Promise<number> =>
      Number(
        (await site.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM spider_history WHERE tenant = ?', [site.tenant]))!
          .n,
      );
    const n = await count();
    const out = await r.render('{kick_spider var=h spider_settings_id=2}{if $h === false}no{/if}');
    expect(out.output).toBe('no');
    expect(out.logs.map((l) => l.message).join()).toContain('Disabled: the crawl is not executed');
    expect(await count()).toBe(n);
    expect(web.hits.length).toBe(before);
    expect((await templateError(r.render('{kick_spider var=h spider_settings_id=77}'))).code).toBe('E_NOT_FOUND');
  });

  it("stays within the render's wall time: a page that hangs is cut at the deadline, the run is stored", async () => {
    const out = await short.render('{kick_spider var=h spider_settings_id=1 target_urls=$t}{$h}', {
      t: [web.url('site.test', '/site/slow')],
    });
    // Cut at the deadline, not hung: the page's stored error says the fetch timed out.
    const id = Number(out.output);
    expect((await history(id))!.status).not.toBe('running');
    expect((await pages(id))[0]).toMatchObject({ status: 0, error: 'E_HTTP_TIMEOUT' });
  });

  it('the crawl starts no request past its deadline (stop reason "time")', async () => {
    const call = { counters: new Map<string, number>() } as unknown as BridgeCall;
    const seeds = [web.url('site.test', '/site/slow'), web.url('site.test', '/site/a')];
    const origins = new Set([new URL(seeds[0]!).origin]);
    const result = await crawl(call, (req) => web.guard.fetch(req), {
      seeds,
      origins,
      maxPages: 10,
      maxDepth: 2,
      deadline: Date.now() + 300,
    });
    expect(result).toMatchObject({ status: 'stopped', stopReason: 'time' });
    expect(result.pages.map((p) => p.error)).toEqual(['E_HTTP_TIMEOUT']);
  });

  it(`fetches at most ${MAX_SPIDER_PAGES} pages in one render, over all its crawls`, async () => {
    const call = {
      counters: new Map<string, number>([['kick_spider.pages', MAX_SPIDER_PAGES - 1]]),
    } as unknown as BridgeCall;
    const seeds = [web.url('site.test', '/site/')];
    const result = await crawl(call, (req) => web.guard.fetch(req), {
      seeds,
      origins: new Set([new URL(seeds[0]!).origin]),
      maxPages: 50,
      maxDepth: 5,
      deadline: Date.now() + 5000,
    });
    expect(result).toMatchObject({ status: 'stopped', stopReason: 'pages per render' });
    expect(result.pages.map((p) => path(p.url))).toEqual(['/site/']);
    expect(call.counters.get('kick_spider.pages')).toBe(MAX_SPIDER_PAGES);
  });

  it('takes at most MAX_SPIDER_TARGETS target_urls', async () => {
    const t = Array.from({ length: MAX_SPIDER_TARGETS + 1 }, (_, i) => web.url('site.test', `/site/${i}`));
    expect((await templateError(r.render('{kick_spider var=h spider_settings_id=1 target_urls=$t}', { t }))).code).toBe(
      'E_SIZE_LIMIT',
    );
  });

  it("keeps each tenant's runs apart: ids are per site, another site sees none of them", async () => {
    await kick();
    const mine = await site.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM spider_pages WHERE tenant = ?', [
      site.tenant,
    ]);
    expect(Number(mine!.n)).toBeGreaterThan(0);
    expect(await other.db.get('SELECT * FROM spider_history WHERE tenant = ?', [other.tenant])).toBeUndefined();
  });

  it("stores a run's pages and outcome in one transaction: a page that cannot be stored leaves none", async () => {
    const spider = site.host.spider!;
    const id = await spider.startRun({ settingsId: 1, targetUrls: null, rerunOf: null });
    const good = {
      url: 'http://site.test/',
      depth: 0,
      status: 200,
      bytes: 1,
      contentType: 'text/html',
      title: '',
      error: '',
    };
    const bad = { ...good, url: null as unknown as string };
    await expect(spider.finishRun(id, { status: 'done', stopReason: '', pages: [good, bad] })).rejects.toThrow();
    expect(await pages(id)).toEqual([]);
    expect(await history(id)).toMatchObject({ status: 'running', pages: 0 });
  });

  it('queues the crawl of a web render as the batch spider/crawl, which crawls that history in the batch context', async () => {
    const page = siteEngine(site, web);
    try {
      const before = web.hits.length;
      const out = await page.render('{kick_spider var=h spider_settings_id=1}{$h}');
      const id = Number(out.output);
      expect(id).toBeGreaterThan(0);
      expect(out.logs.map((l) => l.message)).toEqual([
        expect.stringMatching(/^\{kick_spider\} run \d+: queued as batch run \d+$/),
      ]);
      // Nothing fetched by the page; the history waits for the batch.
      expect(web.hits.length).toBe(before);
      expect(await history(id)).toMatchObject({ status: 'running', pages: 0 });
      const run = await site.db.get<{ id: number; module: string; slug: string; data: string; origin: string }>(
        "SELECT id, module, slug, data, origin FROM batch_queue WHERE tenant = ? AND module = 'spider' AND state = 'queued'",
        [site.tenant],
      );
      expect(run).toMatchObject({ slug: 'crawl', origin: 'kick_spider' });
      expect(JSON.parse(run!.data)).toEqual({ spider_settings_id: 1, spider_history_id: id });
      // What `smartcage batch run` renders for it (with this test's egress guard).
      const crawled = await r.render(moduleBatch('spider', 'crawl')!, { ext_data: JSON.parse(run!.data) });
      expect(Number(crawled.output)).toBe(id);
      expect(await history(id)).toMatchObject({ status: 'done' });
      expect((await pages(id)).length).toBeGreaterThan(0);
      await site.db.run('DELETE FROM batch_queue WHERE tenant = ? AND id = ?', [site.tenant, run!.id]);
      // crawl_history_id is the batch's only.
      expect(
        await templateError(page.render(`{kick_spider var=h spider_settings_id=1 crawl_history_id=${id}}`)),
      ).toMatchObject({ code: 'E_PERMISSION_DENIED' });
    } finally {
      await page.close();
    }
  });
});
