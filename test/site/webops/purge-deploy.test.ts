/**
 * {purge_cdn_cache} and {repo_deploy} on the sample site, on both backends, against a local
 * server on 127.0.0.2 allowed only by a test egress policy.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Site } from '../../../src/site/open-site.js';
import { templateError } from '../../support/engine.js';
import { eachBackend, sampleSite } from '../support/backends.js';
import { reopenWith, siteEngine, startWebServer, type SiteRenderer, type WebServer } from './support.js';

const logText = (r: { logs: { message: string }[] }): string => r.logs.map((l) => l.message).join('\n');

let web: WebServer;
beforeAll(async () => {
  web = await startWebServer();
});
afterAll(() => web.close());

eachBackend('{purge_cdn_cache} and {repo_deploy}', (backend) => {
  let sample: Site & { done(): Promise<void> };
  let plain: SiteRenderer;
  let configured: Site;
  let withConfig: SiteRenderer;
  beforeAll(async () => {
    sample = await sampleSite(backend);
    plain = siteEngine(sample, web);
    configured = await reopenWith(
      sample,
      {
        cdn: { purge_url: web.url('site.test', '/purge'), token_secret: 'CDN_TOKEN' },
        deploy: { hook_url: web.url('site.test', '/hook'), token_secret: 'HOOK_TOKEN' },
      },
      {
        CDN_TOKEN: { value: 'cdn-token-1234', hosts: ['http://site.test'] },
        HOOK_TOKEN: { value: 'hook-token-5678', hosts: ['http://site.test'] },
        ELSEWHERE: { value: 'x-123456', hosts: ['other.test'] },
      },
    );
    withConfig = siteEngine(configured, web);
    // A worker's start is not the render's to pay for (its wall time is 5 s).
    await Promise.all([plain.render('warm'), withConfig.render('warm')]);
  });
  afterAll(async () => {
    await plain.close();
    await withConfig.close();
    await configured.close();
    await sample.done();
  });

  const last = (): (typeof web.hits)[number] => web.hits.at(-1)!;
  const render = (e: SiteRenderer, t: string, vars: Record<string, unknown> = {}) =>
    e.render(t, { purge: web.url('site.test', '/purge'), ...vars });

  it('sends PURGE with a Surrogate-Key per module, no token to an endpoint the template names', async () => {
    const cases: [string, string][] = [
      ['module="topics" topics_group_id=3', 'topics-3'],
      ['module="topics"', 'topics'],
      ['module="csvtable" csvtable_id=2', 'csvtable-2'],
      ['module="csvtable"', 'csvtable'],
      ['module="all"', 'all'],
    ];
    for (const [attrs, key] of cases) {
      const r = await render(withConfig, `{purge_cdn_cache api_endpoint=$purge ${attrs}}done`);
      expect(r.output).toBe('done');
      expect(last()).toMatchObject({ method: 'PURGE', path: '/purge', body: '' });
      expect(last().headers['surrogate-key']).toBe(key);
      expect(last().headers.authorization).toBeUndefined();
      expect(r.logs.map((l) => l.message)).toContain(`{purge_cdn_cache} ${key} purged (200)`);
    }
  });

  it("without api_endpoint uses the site's purge endpoint and its token; none configured is E_BAD_ATTRIBUTE", async () => {
    await render(withConfig, '{purge_cdn_cache module="all"}');
    expect(last().headers.authorization).toBe('Bearer cdn-token-1234');
    const e = await templateError(render(plain, 'x\n{purge_cdn_cache module="all"}'));
    expect([e.code, e.line]).toEqual(['E_BAD_ATTRIBUTE', 2]);
  });

  it('refuses ids of another module and endpoints the guard refuses; a failed purge is a warning', async () => {
    expect(
      (await templateError(render(plain, '{purge_cdn_cache api_endpoint=$purge module="csvtable" topics_group_id=1}')))
        .code,
    ).toBe('E_BAD_COMBINATION');
    expect(
      (await templateError(render(plain, '{purge_cdn_cache api_endpoint=$purge module=$m}', { m: 'pages' }))).code,
    ).toBe('E_BAD_ATTRIBUTE');
    const before = web.hits.length;
    expect(
      (
        await templateError(
          render(plain, '{purge_cdn_cache api_endpoint=$u module="all"}', { u: `http://127.0.0.1:${web.port}/purge` }),
        )
      ).code,
    ).toBe('E_SSRF_DENIED');
    expect((await templateError(render(plain, '{purge_cdn_cache api_endpoint="not a url" module="all"}'))).code).toBe(
      'E_BAD_URL',
    );
    // A secret handle never goes into a URL.
    expect(
      (
        await templateError(
          render(
            withConfig,
            '{secret var=t key="CDN_TOKEN"}{purge_cdn_cache api_endpoint="`$purge`?k=`$t`" module="all"}',
          ),
        )
      ).code,
    ).toBe('E_SECRET_DENIED');
    expect(web.hits.length).toBe(before);
    const failed = await render(plain, '{purge_cdn_cache api_endpoint=$u module="all"}ok', {
      u: web.url('site.test', '/fail/503'),
    });
    expect(failed.output).toBe('ok');
    expect(logText(failed)).toContain('not purged: the endpoint answered 503');
  });

  it('repo_deploy: POST without body to the build hook with its token; true for 2xx', async () => {
    const r = await render(withConfig, '{repo_deploy result_var=ok}{if $ok}started{/if}');
    expect(r.output).toBe('started');
    expect(last()).toMatchObject({ method: 'POST', path: '/hook', body: '' });
    expect(last().headers.authorization).toBe('Bearer hook-token-5678');
  });

  it('repo_deploy: false without a hook or with a failing one; a token the hook may not receive is refused', async () => {
    const none = await render(plain, '{repo_deploy result_var=ok}{if $ok === false}no{/if}');
    expect(none.output).toBe('no');
    expect(logText(none)).toContain('no build hook is configured');
    const failing = await reopenWith(configured, { deploy: { hook_url: web.url('site.test', '/fail/500') } });
    const e1 = siteEngine(failing, web);
    try {
      const r = await render(e1, '{repo_deploy result_var=ok}{if $ok === false}failed{/if}');
      expect(r.output).toBe('failed');
      expect(logText(r)).toContain('answered 500');
    } finally {
      await e1.close();
      await failing.close();
    }
    const denied = await reopenWith(
      configured,
      { deploy: { hook_url: web.url('site.test', '/hook'), token_secret: 'ELSEWHERE' } },
      { ELSEWHERE: { value: 'x-123456', hosts: ['other.test'] } },
    );
    const e2 = siteEngine(denied, web);
    const before = web.hits.length;
    try {
      const e = await templateError(render(e2, '{repo_deploy result_var=ok}'));
      expect(e.code).toBe('E_SECRET_DENIED');
      expect(e.message).not.toContain('x-123456');
      expect(web.hits.length).toBe(before);
    } finally {
      await e2.close();
      await denied.close();
    }
  });

  it("count against the render's request cap of {api}", async () => {
    const e = await templateError(
      render(plain, '{section name=i loop=101}{purge_cdn_cache api_endpoint=$purge module="all"}{/section}'),
    );
    expect(e.code).toBe('E_QUOTA');
  });
});
