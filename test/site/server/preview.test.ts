/**
 * The author's loop of `smartcage serve`: /preview of a site's templates/ (member and request
 * chosen, a sandboxed frame, server-sent change events) and /playground, over real HTTP.
 */
import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSiteServer } from '../../../src/site/app/app.js';
import { PREVIEW_OUTPUT_CSP } from '../../../src/site/app/preview.js';
import type { ServeServer } from '../../../src/site/server/listen.js';
import { BACKENDS } from '../support/backends.js';
import { siteWith, type TestSite } from '../support/site-with.js';
import { http } from '../support/http.js';

const PAGE =
  '<p>{if $smarty.session.member_id}member {$smarty.session.member_id}{else}visitor{/if}; q={$smarty.get.q|escape}; ' +
  'm={$smarty.server.REQUEST_METHOD}; name={$smarty.post.name|escape}</p>';

/** The events of a server-sent stream, as they come. */
function events(url: string): { seen: string[]; open: Promise<void>; close(): void } {
  const seen: string[] = [];
  let close = () => {};
  const open = new Promise<void>((ready, fail) => {
    const req = request(url, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        seen.push(chunk);
        ready();
      });
    });
    req.on('error', (e) => (seen.length === 0 ? fail(e) : undefined));
    req.end();
    close = () => req.destroy();
  });
  return { seen, open, close: () => close() };
}

async function until(ok: () => boolean, what: string, ms = 10_000): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('serve --site: /preview', () => {
  let site: TestSite;
  let server: ServeServer;
  beforeAll(async () => {
    site = await siteWith(BACKENDS[0]!, { files: { 'templates/page.tpl': PAGE, 'templates/broken.tpl': '\n{if}' } });
    server = await startSiteServer({ port: 0, sites: [site], mode: 'single' });
  });
  afterAll(async () => {
    await server.close();
    await site.done();
  });
  const at = (p: string) => `${server.url}${p}`;

  it('lists the pages of templates/', async () => {
    const r = await http(at('/preview/'));
    expect(r.status).toBe(200);
    expect(r.body).toContain('href="/preview/page.tpl"');
    expect(r.body).toContain('href="/preview/broken.tpl"');
  });

  it('the page holds the form and a sandboxed frame of the output with the choices', async () => {
    const r = await http(at('/preview/page.tpl?member=2&get=q%3Dx'));
    expect(r.status).toBe(200);
    expect(r.headers['content-security-policy']).toContain("script-src 'self'");
    expect(r.body).toContain('<iframe id="preview-frame"');
    expect(r.body).toContain('sandbox="allow-forms allow-popups"');
    expect(r.body).toContain('src="/preview-output/page.tpl?member=2&#38;get=q%3Dx"');
    expect(r.body).toContain('data-events="/preview-events"');
    // The sample's members to choose from.
    expect(r.body).toMatch(/<option value="1">/);
  });

  it('renders the page as one web request: member, query and POST body', async () => {
    const visitor = await http(at('/preview-output/page.tpl?get=q%3D%3Cb%3E'));
    expect(visitor.status).toBe(200);
    expect(visitor.body).toBe('<p>visitor; q=&lt;b&gt;; m=GET; name=</p>');
    expect(visitor.headers['content-security-policy']).toBe(PREVIEW_OUTPUT_CSP);
    const post = encodeURIComponent('{"name":"Ann"}');
    const member = await http(at(`/preview-output/page.tpl?member=2&post=${post}`));
    expect(member.body).toBe('<p>member 2; q=; m=POST; name=Ann</p>');
  });

  it('a template error is the diagnostic at its line; bad choices are refused', async () => {
    const r = await http(at('/preview-output/broken.tpl'));
    expect(r.status).toBe(500);
    expect(r.body).toMatch(/^broken\.tpl:2:\d+: error E_/);
    expect((await http(at('/preview-output/page.tpl?member=x'))).status).toBe(400);
    expect((await http(at('/preview-output/page.tpl?post=%7B'))).status).toBe(400);
  });

  it('no page outside templates/', async () => {
    for (const p of ['/preview/..%2Fsite.json', '/preview-output/..%2Fsite.json', '/preview/nothing.tpl']) {
      expect((await http(at(p))).status, p).toBe(404);
    }
  });

  it('tells the browser when a file of the site changes, not when the preview itself renders', async () => {
    const stream = events(at('/preview-events'));
    try {
      await stream.open;
      expect(stream.seen.join('')).toContain(': watching');
      // A render that writes the site's data (a session of {login}) is no change.
      writeFileSync(path.join(site.dir, 'templates', 'login.tpl'), '{login member_id=2}ok');
      await until(() => stream.seen.join('').includes('event: change'), 'the change of templates/');
      const before = stream.seen.join('').split('event: change').length;
      expect((await http(at('/preview-output/login.tpl'))).body).toBe('ok');
      await new Promise((r) => setTimeout(r, 600));
      expect(stream.seen.join('').split('event: change').length).toBe(before);
      writeFileSync(path.join(site.dir, 'templates', 'page.tpl'), `${PAGE}!`);
      await until(() => stream.seen.join('').split('event: change').length > before, 'the edit of page.tpl');
    } finally {
      stream.close();
    }
  });

  it('the site index links the preview and the playground; the script is served', async () => {
    const index = await http(at('/'));
    expect(index.body).toContain('href="/preview/"');
    expect(index.body).toContain('href="/playground"');
    const js = await http(at('/_loop/loop.js'));
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.body).toContain('EventSource');
  });
});

describe('serve: /playground', () => {
  let site: TestSite;
  let server: ServeServer;
  beforeAll(async () => {
    site = await siteWith(BACKENDS[0]!);
    server = await startSiteServer({ port: 0, sites: [site], mode: 'multi' });
  });
  afterAll(async () => {
    await server.close();
    await site.done();
  });
  const play = async (body: unknown) => {
    const r = await http(`${server.url}/playground`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(r.status).toBe(200);
    return JSON.parse(r.body) as { output: string; warnings: string[]; code: string; error?: string };
  };

  it('the page: a form with a sample, under the forms UI CSP', async () => {
    const r = await http(`${server.url}/playground`);
    expect(r.status).toBe(200);
    expect(r.headers['content-security-policy']).toContain("script-src 'self'");
    expect(r.body).toContain('<form id="playground" method="post" action="/playground"');
    expect(r.body).toContain('<script src="/_loop/loop.js" defer>');
  });

  it('renders with the variables: output, warnings and the generated JavaScript', async () => {
    const a = await play({ template: '{$x|upper} {$n|string_format:"%.2f"}', vars: '{"x": "tea", "n": 1.5}' });
    expect(a.output).toBe('TEA 1.50');
    expect(a.error).toBeUndefined();
    expect(a.code).toContain('smartcage.define("playground.tpl"');
    const w = await play({ template: 'x\n{$a|escape:"htmll"}', vars: '{"a": "<"}' });
    expect(w.warnings).toHaveLength(1);
    expect(w.warnings[0]).toMatch(/^playground\.tpl:2:\d+: warning W_UNKNOWN_ARGUMENT/);
  });

  it('errors: a template error at its line, variables that are not a JSON object', async () => {
    const e = await play({ template: 'a\n{if}', vars: '' });
    expect(e.error).toMatch(/^playground\.tpl:2:\d+: error E_/);
    expect(e.output).toBe('');
    expect((await play({ template: 'x', vars: '[1]' })).error).toMatch(/JSON object/);
  });

  it('runs in the sandbox with the default limits', async () => {
    const a = await play({ template: '{section name=i loop=1000000000}{/section}', vars: '' });
    expect(a.error).toMatch(/E_CPU_TIMEOUT|E_WALL_TIMEOUT/);
  });

  it('a form POST without script answers the page with the result', async () => {
    const r = await http(`${server.url}/playground`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ template: '<b>{$x}</b>', vars: '{"x":"hi"}' }).toString(),
    });
    expect(r.status).toBe(200);
    expect(r.body).toContain('srcdoc="&#60;b&#62;hi&#60;/b&#62;"');
    expect(r.body).toContain('smartcage.define(');
  });
});
