/**
 * `smartcage serve --site` and `--sites`, in process and over real HTTP on 127.0.0.1, on both
 * backends: the API with its security, sessions and cookies, the form editor of JSON fields, and
 * sites that share a server (and, on PostgreSQL, a database) without seeing each other.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSiteServer } from '../../src/site/app/app.js';
import type { FormsServer } from '../../src/forms-ui/server/app.js';
import { SESSION_COOKIE } from '../../src/site/adapters/sessions.js';
import { parseVirtualPath } from '../../src/host-adapters/files/virtual-path.js';
import { eachBackend } from './support/backends.js';
import { endpoint, siteWith, type TestSite } from './support/site-with.js';
import { cookiePair, http } from './support/http.js';
import { servedSite } from './support/served-site.js';

const SERVER =
  '{assign var=o.post value=$smarty.post}{assign var=o.get value=$smarty.get}{assign var=o.member value=$smarty.session.member_id}{assign var=o.server value=$smarty.server}{return value=$o}';
const FILES = {
  'functions/echo.tpl': SERVER,
  'functions/login.tpl': '{login member_id=2}{return value="logged in"}',
  'functions/logout.tpl': '{logout}{return value="logged out"}',
  'functions/credential.tpl': '{assign_api_credential api_key="k" member_id=2 var=c}{return value=$c}',
  'functions/fails.tpl': '\n\n{$a|no_such_modifier}',
};

function edit(config: Record<string, unknown>): void {
  for (const add of [
    endpoint('echo', 'echo'),
    endpoint('echo', 'echo', { method: 'POST', apiId: 5 }),
    endpoint('login', 'login'),
    endpoint('logout', 'logout'),
    endpoint('credential', 'credential'),
    endpoint('fails', 'fails'),
    endpoint('echo', 'echo', { apiId: 2 }),
    endpoint('echo', 'echo', { apiId: 3 }),
    endpoint('echo', 'echo', { apiId: 4 }),
  ])
    add(config);
  config.apis = [
    { api_id: 1, security: 'none' },
    { api_id: 2, security: 'cookie' },
    { api_id: 3, security: 'static' },
    { api_id: 4, security: 'dynamic' },
  ];
}

eachBackend('serve --site', (backend) => {
  const served = servedSite(backend, { edit, files: FILES });
  const { at } = served;
  const body = async (p: string, opts: Parameters<typeof http>[1] = {}) =>
    JSON.parse((await http(at(p), opts)).body) as Record<string, unknown>;

  it('GET: the query is $smarty.get; the answer the JSON of {return}; nobody without a session', async () => {
    const r = await http(at('/rcms-api/1/echo?a=1&l[]=x'));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(r.body)).toMatchObject({
      get: { a: '1', l: ['x'] },
      post: [],
      member: null,
      server: { REQUEST_METHOD: 'GET', QUERY_STRING: 'a=1&l[]=x' },
    });
    // The sample `news` endpoint lists the open contents of group 1 through api_method.
    const news = JSON.parse((await http(at('/rcms-api/1/news?cnt=3'))).body) as {
      list: { topics_id: number }[];
      pageInfo: { totalCnt: number };
    };
    expect(news.list).toHaveLength(3);
    expect(news.pageInfo.totalCnt).toBe(25);
  });

  it('POST: a JSON or form body is $smarty.post; anything else is refused before the function runs', async () => {
    const json = await body('/rcms-api/5/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Ken","tags":["a"]}',
    });
    expect(json).toMatchObject({ post: { name: 'Ken', tags: ['a'] } });
    const form = await body('/rcms-api/5/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Ken&tags[]=a',
    });
    expect(form).toMatchObject({ post: { name: 'Ken', tags: ['a'] } });
    expect(
      (
        await http(at('/rcms-api/5/echo'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await http(at('/rcms-api/5/echo'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '7',
        })
      ).status,
    ).toBe(400);
    expect(
      (await http(at('/rcms-api/5/echo'), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }))
        .status,
    ).toBe(415);
    expect(
      (
        await http(at('/rcms-api/5/echo'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: Buffer.alloc(1024 * 1024 + 1, 32),
        })
      ).status,
    ).toBe(413);
  });

  it('HEAD answers as GET without the body: the same status and headers, content-length included', async () => {
    for (const p of ['/rcms-api/1/news?cnt=3', '/rcms-api/1/fails', '/rcms-api/2/echo']) {
      const get = await http(at(p));
      const head = await http(at(p), { method: 'HEAD' });
      expect(head.body).toBe('');
      const same = (h: typeof get.headers) => {
        const { date: _, ...rest } = h;
        return rest;
      };
      expect([head.status, same(head.headers)]).toEqual([get.status, same(get.headers)]);
      expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(get.body));
    }
  });

  it('an unknown endpoint is 404, another method 405 with Allow, a template error 500 at its line', async () => {
    expect((await http(at('/rcms-api/1/nothing'))).status).toBe(404);
    const wrong = await http(at('/rcms-api/1/echo'), { method: 'POST' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET, HEAD');
    expect(JSON.parse(wrong.body)).toMatchObject({
      errors: [{ message: '/rcms-api/1/echo answers GET and HEAD only' }],
    });
    const postOnly = await http(at('/rcms-api/5/echo'), { method: 'HEAD' });
    expect([postOnly.status, postOnly.headers.allow, postOnly.body]).toEqual([405, 'POST', '']);
    const failed = await http(at('/rcms-api/1/fails'));
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.body)).toEqual({
      errors: [{ code: 'E_UNKNOWN_MODIFIER', message: expect.stringMatching(/^functions\/fails\.tpl:3: /) as unknown }],
    });
  });

  it("a login sets the session cookie (HttpOnly, Path=/); the next request with it is the member's; logout clears it", async () => {
    const login = await http(at('/rcms-api/1/login'));
    const line = login.cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    expect(line).toMatch(/; Path=\/; SameSite=Lax; Max-Age=86400; HttpOnly$/);
    const cookie = cookiePair(line);
    expect(await body('/rcms-api/1/echo', { headers: { cookie } })).toMatchObject({ member: 2 });
    const out = await http(at('/rcms-api/1/logout'), { headers: { cookie } });
    expect(out.cookies).toContain(`${SESSION_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0; HttpOnly`);
    expect(await body('/rcms-api/1/echo', { headers: { cookie } })).toMatchObject({ member: null });
  });

  it("the request's credentials never reach the template", async () => {
    const cookie = cookiePair((await http(at('/rcms-api/1/login'))).cookies[0]!);
    const r = await body('/rcms-api/1/echo', {
      headers: { cookie, 'x-rcms-api-access-token': 'tok', authorization: 'Bearer x', 'x-other': 'seen' },
    });
    const server = r.server as Record<string, string>;
    expect(server.HTTP_X_OTHER).toBe('seen');
    expect(Object.keys(server).filter((k) => /COOKIE|TOKEN|AUTHORIZATION/.test(k))).toEqual([]);
  });

  it('security cookie: 401 without a session', async () => {
    expect((await http(at('/rcms-api/2/echo'))).status).toBe(401);
    const cookie = cookiePair((await http(at('/rcms-api/1/login'))).cookies[0]!);
    expect(await body('/rcms-api/2/echo', { headers: { cookie } })).toMatchObject({ member: 2 });
  });

  it('security static: a static token of this API, not of another, not a made-up one', async () => {
    const own = (await served.site.host.apiTokens!.issue({
      apiId: 3,
      type: 'static',
      memberId: null,
      expiresSeconds: null,
      memo: 'test',
    }))!.token;
    expect((await http(at('/rcms-api/3/echo'))).status).toBe(401);
    expect((await http(at('/rcms-api/3/echo'), { headers: { 'x-rcms-api-access-token': 'st_made_up' } })).status).toBe(
      401,
    );
    expect((await http(at('/rcms-api/3/echo'), { headers: { 'x-rcms-api-access-token': own } })).status).toBe(200);
    expect((await http(at('/rcms-api/4/echo'), { headers: { 'x-rcms-api-access-token': own } })).status).toBe(401);
  });

  it("security dynamic: a member's token of this API, or a session's access token from assign_api_credential, is that member", async () => {
    const dynamic = (await served.site.host.apiTokens!.issue({
      apiId: 4,
      type: 'dynamic',
      memberId: 2,
      expiresSeconds: 60,
      memo: '',
    }))!.token;
    expect(await body('/rcms-api/4/echo', { headers: { 'x-rcms-api-access-token': dynamic } })).toMatchObject({
      member: 2,
    });
    const credential = await body('/rcms-api/1/credential');
    expect(
      await body('/rcms-api/4/echo', {
        headers: { 'x-rcms-api-access-token': credential['X-RCMS-API-ACCESS-TOKEN'] as string },
      }),
    ).toMatchObject({ member: 2 });
    expect(
      await body('/rcms-api/1/echo', { headers: { cookie: `${SESSION_COOKIE}=${credential.session_id as string}` } }),
    ).toMatchObject({ member: 2 });
    expect((await http(at('/rcms-api/4/echo'))).status).toBe(401);
  });

  it("the form editor: the field's page, its precompiled validator, and values checked by the forms validator on save", async () => {
    const page = await http(at('/ext/1/venue/1'));
    expect(page.status).toBe(200);
    expect(page.body).toContain('<json-field-form name="value"');
    expect(page.body).toContain('Shibuya Hall');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await http(at('/ext/1/venue/validator.js'))).body).toContain('SmartcageValidators');
    const post = (value: string) =>
      http(at('/ext/1/venue/7'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ value }).toString(),
      });
    const refused = await post(JSON.stringify({ capacity: 0 }));
    expect(refused.status).toBe(422);
    expect(refused.body).toContain('role="alert"');
    expect(refused.body).toMatch(/<li>\/capacity: /);
    expect((await post('{not json')).status).toBe(400);
    expect((await http(at('/ext/1/venue/7'))).body).toContain('cols="60"></textarea>');
    const saved = await post(
      JSON.stringify({ name: 'Umeda Hall', capacity: 80, floorMap: '/files/user/map.png', online: false }),
    );
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe('/ext/1/venue/7?saved=1');
    expect((await http(at('/ext/1/venue/7?saved=1'))).body).toContain('Umeda Hall');
    // A Japanese page posts to a Japanese address, so saving stays in Japanese.
    expect((await http(at('/ext/1/venue/7?lang=ja'))).body).toContain('action="/ext/1/venue/7?lang=ja"');
    expect((await http(at('/ext/1/venue/'))).body).toMatch(/href="\/ext\/1\/venue\/7"/);
    expect((await http(at('/ext/1/nothing/1'))).status).toBe(404);
  });

  it("the JSON-fields list and the editor name each content by its title, in the page's language, with its id", async () => {
    // Content 8 holds a value but has no text in any language.
    await http(at('/ext/1/venue/8'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        value: JSON.stringify({ name: 'Kobe', capacity: 5, floorMap: '', online: true }),
      }).toString(),
    });
    await served.site.db.run('DELETE FROM topic_texts WHERE tenant = ? AND topic_id = 8', [served.site.tenant]);
    const en = (await http(at('/ext/1/venue/'))).body;
    expect(en).toContain(
      '<li><a href="/ext/1/venue/1">Our new website is live</a> <span class="content-id">(ID 1)</span></li>',
    );
    expect(en).toContain('<li><a href="/ext/1/venue/8">(no title)</a> <span class="content-id">(ID 8)</span></li>');
    const ja = (await http(at('/ext/1/venue/?lang=ja'))).body;
    expect(ja).toContain(
      '<li><a href="/ext/1/venue/1?lang=ja">新しいウェブサイトを公開しました</a> <span class="content-id">(ID 1)</span></li>',
    );
    expect(ja).toContain('>（タイトルなし）</a>');
    expect((await http(at('/ext/1/venue/1'))).body).toMatch(/<h1>[^<]*: Our new website is live \(ID 1\)<\/h1>/);
    expect((await http(at('/ext/1/venue/1?lang=ja'))).body).toMatch(
      /<h1>[^<]*: 新しいウェブサイトを公開しました \(ID 1\)<\/h1>/,
    );
  });

  it("the site index, the form samples at /forms/, the site's files for the picker", async () => {
    expect((await http(at('/'))).body).toContain('/rcms-api/1/news');
    // ?lang=ja: the index in Japanese, and its links keep the language.
    const ja = (await http(at('/?lang=ja'))).body;
    expect(ja).toContain('<html lang="ja">');
    expect(ja).toContain('<h2>APIエンドポイント</h2>');
    expect(ja).toContain('href="/forms/?lang=ja"');
    expect(ja).toMatch(/<a href="\?lang=en" lang="en">English<\/a>/);
    expect((await http(at('/forms/'))).body).toContain('/demo/article');
    // The other language's link stays on the page, wherever the forms app is mounted.
    expect((await http(at('/forms/'))).body).toMatch(/<a href="\?lang=ja" lang="ja">日本語<\/a>/);
    expect((await http(at('/forms/?lang=ja'))).body).toMatch(/<a href="\?lang=en" lang="en">English<\/a>/);
    await served.site.host.files!.writeAtomic(
      parseVirtualPath('/files/user/hello.txt'),
      new TextEncoder().encode('hi'),
    );
    expect((await http(at('/files/user/hello.txt'))).body).toBe('hi');
    expect(JSON.parse((await http(at('/api/files?path=/files/user/'))).body)).toMatchObject({
      entries: [expect.objectContaining({ name: 'hello.txt' }), expect.objectContaining({ name: 'sample-page.html' })],
    });
  });
});

eachBackend('serve --sites: each site its own tenant', (backend) => {
  let a: TestSite;
  let b: TestSite;
  let server: FormsServer;
  beforeAll(async () => {
    a = await siteWith(backend, { edit, files: FILES });
    b = await siteWith(backend, { edit, files: FILES });
    server = await startSiteServer({ port: 0, sites: [a, b], mode: 'multi' });
  });
  afterAll(async () => {
    await server.close();
    await a.done();
    await b.done();
  });
  const at = (p: string) => `${server.url}${p}`;

  it('routed by /sites/<key>/ and by Host <key>.localhost; / lists the sites', async () => {
    expect(JSON.parse((await http(at(`/sites/${a.tenant}/rcms-api/1/echo`))).body)).toMatchObject({ member: null });
    const byHost = await http(at('/rcms-api/1/echo'), { headers: { host: `${b.tenant}.localhost:${server.port}` } });
    expect(byHost.status).toBe(200);
    expect((await http(at('/'))).body).toContain(`/sites/${a.tenant}/`);
    expect((await http(at(`/sites/${a.tenant}`))).status).toBe(301);
    expect((await http(at('/sites/nobody/rcms-api/1/echo'))).status).toBe(404);
    expect((await http(at('/'), { headers: { host: 'nobody.localhost' } })).status).toBe(404);
  });

  it("a session cookie is scoped to its site's path, and another site does not know it", async () => {
    const login = await http(at(`/sites/${a.tenant}/rcms-api/1/login`));
    expect(login.cookies[0]).toContain(`; Path=/sites/${a.tenant}/;`);
    const cookie = cookiePair(login.cookies[0]!);
    expect(
      JSON.parse((await http(at(`/sites/${a.tenant}/rcms-api/1/echo`), { headers: { cookie } })).body),
    ).toMatchObject({ member: 2 });
    expect(
      JSON.parse((await http(at(`/sites/${b.tenant}/rcms-api/1/echo`), { headers: { cookie } })).body),
    ).toMatchObject({ member: null });
    expect((await http(at(`/sites/${b.tenant}/rcms-api/2/echo`), { headers: { cookie } })).status).toBe(401);
  });

  it("another site's token is refused", async () => {
    const tokenOfA = (await a.host.apiTokens!.issue({
      apiId: 3,
      type: 'static',
      memberId: null,
      expiresSeconds: null,
      memo: '',
    }))!.token;
    expect(
      (await http(at(`/sites/${a.tenant}/rcms-api/3/echo`), { headers: { 'x-rcms-api-access-token': tokenOfA } }))
        .status,
    ).toBe(200);
    expect(
      (await http(at(`/sites/${b.tenant}/rcms-api/3/echo`), { headers: { 'x-rcms-api-access-token': tokenOfA } }))
        .status,
    ).toBe(401);
  });

  it("another site's rows and files stay its own", async () => {
    const post = (site: TestSite, value: unknown) =>
      http(at(`/sites/${site.tenant}/ext/1/venue/9`), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ value: JSON.stringify(value) }).toString(),
      });
    expect((await post(a, { name: 'Only in A' })).headers.location).toBe(`/sites/${a.tenant}/ext/1/venue/9?saved=1`);
    expect((await http(at(`/sites/${a.tenant}/ext/1/venue/9`))).body).toContain('Only in A');
    expect((await http(at(`/sites/${b.tenant}/ext/1/venue/9`))).body).not.toContain('Only in A');
    await a.host.files!.writeAtomic(parseVirtualPath('/files/user/secret.txt'), new TextEncoder().encode('of A'));
    expect((await http(at(`/sites/${a.tenant}/files/user/secret.txt`))).body).toBe('of A');
    expect((await http(at(`/sites/${b.tenant}/files/user/secret.txt`))).status).toBe(404);
    expect((await http(at('/files/user/secret.txt'), { headers: { host: `${b.tenant}.localhost` } })).status).toBe(404);
  });

  it("the file picker of a site under /sites/<key>/ lists that site's files", async () => {
    const page = await http(at(`/sites/${a.tenant}/ext/1/venue/1`));
    expect(page.body).toContain(`files-base="/sites/${a.tenant}"`);
    expect(page.body).toContain(`/sites/${a.tenant}/ext/1/venue/validator.js`);
    expect(JSON.parse((await http(at(`/sites/${a.tenant}/api/files?path=/files/user/`))).body)).toMatchObject({
      path: '/files/user/',
    });
  });
});
