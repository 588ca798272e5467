/**
 * The site answering its own API to templates ({api_internal}, {api_mng}) and the rest of the
 * api family ({api_token}, {cookie}), on both backends: the endpoint's custom function runs in the
 * sandbox with the request, as the acting member; recursion and depth are bounded.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { renderOnSite, type SiteRenderOptions } from '../../../src/site/render.js';
import { SESSION_COOKIE } from '../../../src/site/adapters/sessions.js';
import { tokenInfo } from '../../../src/site/adapters/api.js';
import { eachBackend } from '../support/backends.js';
import { endpoint, siteWith, failureOf, type TestSite } from '../support/site-with.js';

const ECHO =
  '{assign var=o.get value=$smarty.get}{assign var=o.post value=$smarty.post}{assign var=o.request value=$smarty.request}' +
  '{assign var=o.member value=$smarty.session.member_id}{assign var=o.cnt value=$smarty.server.HTTP_RCMS_X_API_REQUEST_CNT}' +
  '{assign var=o.method value=$smarty.server.REQUEST_METHOD}{assign var=o.site value=$smarty.const.SITE_KEY}{return value=$o}';
const calls = (next: string) => `{api_internal endpoint="/rcms-api/1/${next}" var=r}{return value=$r}`;

const FILES = {
  'functions/echo.tpl': ECHO,
  'functions/loop.tpl': calls('loop'),
  'functions/deep1.tpl': calls('deep2'),
  'functions/deep2.tpl': calls('deep3'),
  'functions/deep3.tpl': calls('deep4'),
  'functions/deep4.tpl': '{return value="bottom"}',
  'functions/broken.tpl': '\n{$x|no_such_modifier}',
  'functions/login2.tpl': '{login member_id=2}{return value="in"}',
};

function edit(config: Record<string, unknown>): void {
  for (const add of [
    endpoint('echo', 'echo'),
    endpoint('echo-post', 'echo', { method: 'POST' }),
    endpoint('loop', 'loop'),
    endpoint('deep1', 'deep1'),
    endpoint('deep2', 'deep2'),
    endpoint('deep3', 'deep3'),
    endpoint('deep4', 'deep4'),
    endpoint('broken', 'broken'),
    endpoint('ghost', 'ghost'),
    endpoint('login2', 'login2'),
  ])
    add(config);
  config.apis = [
    { api_id: 1, security: 'none' },
    { api_id: 2, security: 'static' },
    { api_id: 3, security: 'dynamic' },
  ];
}

eachBackend("the site's own API", (backend) => {
  let site: TestSite;
  let other: TestSite;
  beforeAll(async () => {
    site = await siteWith(backend, { edit, files: FILES });
    other = await siteWith(backend, { edit, files: FILES });
  });
  afterAll(async () => {
    await site.done();
    await other.done();
  });

  const run = (src: string, opts: Partial<SiteRenderOptions> = {}) =>
    renderOnSite(site, src, { name: 'caller.tpl', ...opts });
  const json = async (src: string, opts: Partial<SiteRenderOptions> = {}) =>
    JSON.parse((await run(`${src}{$r|@json_encode}`, opts)).output) as Record<string, unknown>;
  const failure = (src: string) => failureOf(run(src));

  it('GET: the query is $smarty.get and $smarty.request; nobody without member_id; one level deep', async () => {
    const r = await json('{api_internal endpoint="/rcms-api/1/echo?a=1" query="b[]=2&b[]=3&c[x]=4" var=r}');
    expect(r).toEqual({
      get: { a: '1', b: ['2', '3'], c: { x: '4' } },
      post: [],
      request: { a: '1', b: ['2', '3'], c: { x: '4' } },
      member: null,
      cnt: '2',
      method: 'GET',
      site: site.tenant,
    });
  });

  it('POST: queries are the body, $smarty.post', async () => {
    const r = await json(
      '{assign_array var=q keys="name" values="Ken"}{api_internal endpoint="/rcms-api/1/echo-post" method="POST" queries=$q var=r}',
    );
    expect(r).toMatchObject({ get: [], post: { name: 'Ken' }, request: { name: 'Ken' }, method: 'POST' });
  });

  it("member_id runs as that member; use_current_session as the session's; direct runs in-process the same way", async () => {
    expect(await json('{api_internal endpoint="/rcms-api/1/echo" member_id=2 var=r}')).toMatchObject({ member: 2 });
    expect(
      await json('{login member_id=2}{api_internal endpoint="/rcms-api/1/echo" use_current_session=true var=r}'),
    ).toMatchObject({ member: 2 });
    expect(await json('{api_internal endpoint="/rcms-api/1/echo" direct=true var=r}')).toMatchObject({
      member: null,
      method: 'GET',
    });
  });

  it("the render's own member is not passed on without use_current_session", async () => {
    expect(await json('{api_internal endpoint="/rcms-api/1/echo" var=r}', { memberId: 2 })).toMatchObject({
      member: null,
    });
  });

  it('a recursion into an endpoint being served is refused (508), and so is nesting past three', async () => {
    const loop = await json('{api_internal endpoint="/rcms-api/1/loop" var=r}');
    expect(loop).toEqual({
      errors: [{ code: 'recursion', message: '/rcms-api/1/loop is already being served by this request' }],
    });
    const deep = await json('{api_internal endpoint="/rcms-api/1/deep1" var=r}');
    expect(deep).toEqual({ errors: [{ code: 'too_deep', message: 'internal API requests nest at most 3 deep' }] });
    expect(await json('{api_internal endpoint="/rcms-api/1/deep2" var=r}')).toBe('bottom');
    expect(site.requests.open).toBe(0);
  });

  it('failures are answers: status_var 0 and the errors (404, 405, a template error at its line, no function, no management API)', async () => {
    const answer = async (attrs: string) => {
      const out = (await run(`{api_internal ${attrs} var=r status_var=s}{$s}|{$r.errors.0.code}|{$r.errors.0.message}`))
        .output;
      return out;
    };
    expect(await answer('endpoint="/rcms-api/1/nothing"')).toBe('0|not_found|no endpoint /rcms-api/1/nothing');
    expect(await answer('endpoint="/rcms-api/9/echo"')).toBe('0|not_found|no endpoint /rcms-api/9/echo');
    expect(await answer('endpoint="/rcms-api/1/echo" method="POST"')).toBe(
      '0|method_not_allowed|/rcms-api/1/echo answers GET only',
    );
    expect(await answer('endpoint="/rcms-api/1/broken"')).toMatch(/^0\|E_UNKNOWN_MODIFIER\|functions\/broken\.tpl:2: /);
    expect(await answer('endpoint="/rcms-api/1/ghost"')).toBe(
      '0|function_not_found|functions/ghost.tpl does not exist',
    );
    expect(
      (await run('{api_mng endpoint="/management/topics/list/" var=r status_var=s}{$s}|{$r.errors.0.code}')).output,
    ).toBe('0|not_found');
  });

  it("direct is refused for a POST endpoint, and member_id for a super user (the plugin's rules)", async () => {
    expect(await failure('{api_internal endpoint="/rcms-api/1/echo-post" method="POST" direct=true var=r}')).toBe(
      'E_BAD_COMBINATION@1',
    );
    expect(await failure('{api_internal endpoint="/rcms-api/1/echo" member_id=1 var=r}')).toBe('E_IDENTITY_DENIED@1');
  });

  it("use_current_session shares the request's cookie jar: a login inside is the caller's; without, it stays inside", async () => {
    const shared = await run(
      '{api_internal endpoint="/rcms-api/1/login2" use_current_session=true var=r}{api_internal endpoint="/rcms-api/1/echo" use_current_session=true var=e}{$e.member}',
    );
    expect(shared.output).toBe('2');
    expect(shared.setCookies.has(SESSION_COOKIE)).toBe(true);
    const apart = await run(
      '{api_internal endpoint="/rcms-api/1/login2" var=r}{api_internal endpoint="/rcms-api/1/echo" use_current_session=true var=e}[{$e.member}]',
    );
    expect(apart.output).toBe('[]');
    expect(apart.setCookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('each site answers with its own functions', async () => {
    expect(await json('{api_internal endpoint="/rcms-api/1/echo" var=r}')).toMatchObject({ site: site.tenant });
  });

  it('{api_token} static: one valid token, handed out again; stored for this site only', async () => {
    const a = (await run('{api_token var=t type="static" api_id=2}{$t}')).output;
    const b = (await run('{api_token var=t type="static" api_id=2 expires=5}{$t}')).output;
    expect(a).toMatch(/^st_/);
    expect(b).toBe(a);
    expect(await tokenInfo(site, a)).toEqual({ apiId: 2, type: 'static', memberId: null });
    expect(await tokenInfo(other, a)).toBeNull();
  });

  it("{api_token} dynamic: new every time, for the render's member, never stored in the clear", async () => {
    const r = (
      await run('{api_token var=t type="dynamic" api_id=3 expires=120 expires_var=e}{$t} {$e}', { memberId: 2 })
    ).output;
    const [token, expires] = r.split(' ');
    expect(Number(expires) - Math.floor(Date.now() / 1000)).toBeGreaterThan(100);
    expect(await tokenInfo(site, token)).toEqual({ apiId: 3, type: 'dynamic', memberId: 2 });
    const again = (await run('{api_token var=t type="dynamic" api_id=3}{$t}', { memberId: 2 })).output;
    expect(again).not.toBe(token);
    const rows = await site.db.all('SELECT * FROM api_tokens WHERE tenant = ?', [site.tenant]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('{api_token} of another type, or of no API of the site, is E_PERMISSION_DENIED', async () => {
    expect(await failure('{api_token var=t type="dynamic" api_id=2}')).toBe('E_PERMISSION_DENIED@1');
    expect(await failure('{api_token var=t type="static" api_id=1}')).toBe('E_PERMISSION_DENIED@1');
    expect(await failure('{api_token var=t type="static" api_id=77}')).toBe('E_PERMISSION_DENIED@1');
  });

  it('{cookie}: reads what the browser sent, sets what the response carries', async () => {
    const r = await run('{cookie var=l key="lang"}{$l}{cookie key="n" value=1 expires=2}', {
      request: { cookies: { rcms_api_local: '{"lang":"en"}' } },
    });
    expect(r.output).toBe('en');
    expect(r.setCookies.get('rcms_api_local')).toEqual({
      value: '{"lang":"en","n":1}',
      maxAge: 172800,
      httpOnly: false,
    });
  });
});
