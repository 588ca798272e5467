/**
 * {login} and {logout} on a real site, both backends: the session a login starts reaches the
 * next request through its cookie, and every member_id rule is tried against a break.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { renderOnSite, type SiteRenderOptions } from '../../../src/site/render.js';
import { SESSION_COOKIE, memberOfSession } from '../../../src/site/adapters/sessions.js';
import { eachBackend } from '../../site/support/backends.js';
import { addMember, siteWith, failureOf, type TestSite } from '../../site/support/site-with.js';

const ME = '{api_internal endpoint="/rcms-api/1/me" use_current_session=true var=r}[{$r.member_id}]';

eachBackend('{login} and {logout}', (backend) => {
  let site: TestSite;
  let other: TestSite;
  beforeAll(async () => {
    site = await siteWith(backend);
    other = await siteWith(backend);
    await addMember(site, 3);
  });
  afterAll(async () => {
    await site.done();
    await other.done();
  });

  const run = (src: string, opts: Partial<SiteRenderOptions> = {}) =>
    renderOnSite(site, src, { name: 'login.tpl', ...opts });
  const failure = (src: string, opts: Partial<SiteRenderOptions> = {}) => failureOf(run(src, opts));
  const sessionOf = async (src: string) => (await run(src)).setCookies.get(SESSION_COOKIE)!.value;

  it("starts a session: the response sets its cookie, the next request with it is the member's", async () => {
    const r = await run('{login member_id=2}');
    const cookie = r.setCookies.get(SESSION_COOKIE)!;
    expect(cookie).toMatchObject({ maxAge: 86400, httpOnly: true });
    expect(await memberOfSession(site, cookie.value)).toBe(2);
    const next = await run('{$smarty.session.member_id}', { request: { cookies: { [SESSION_COOKIE]: cookie.value } } });
    expect(next.output).toBe('2');
    expect(next.memberId).toBe(2);
    expect(site.requests.open).toBe(0);
  });

  it("the render keeps its identity; the request's session changes at once", async () => {
    const r = await run(
      `{login member_id=2}({$smarty.session.member_id}){api_internal endpoint="/rcms-api/1/me" var=plain}[{$plain.member_id}]${ME}`,
    );
    expect(r.output).toBe('()[][2]');
  });

  it("stores only hashes: the cookie's value is nowhere in the database", async () => {
    const id = await sessionOf('{login member_id=2}');
    const rows = await site.db.all<Record<string, unknown>>('SELECT * FROM sessions WHERE tenant = ?', [site.tenant]);
    expect(JSON.stringify(rows)).not.toContain(id);
  });

  it("member_id from a variable: refused at its line, unless the render is a super user's", async () => {
    expect(await failure('{assign var=m value=2}\n{login member_id=$m}')).toBe('E_IDENTITY_DENIED@2');
    const r = await run(`{assign var=m value=2}{login member_id=$m}${ME}`, { memberId: 1 });
    expect(r.output).toBe('[2]');
  });

  it("never a super user's id, not even for a super user", async () => {
    expect(await failure('\n{login member_id=1}')).toBe('E_IDENTITY_DENIED@2');
    expect(await failure('{login member_id=1}', { memberId: 1 })).toBe('E_IDENTITY_DENIED@1');
  });

  it("only a member of this site: another site's member, or nobody's id, is E_NOT_FOUND", async () => {
    expect(await failure('{login member_id=99}')).toBe('E_NOT_FOUND@1');
    await addMember(other, 42);
    expect(await failure('{login member_id=42}')).toBe('E_NOT_FOUND@1');
  });

  it('a bad attribute is an error at its line', async () => {
    expect(await failure('\n\n{login member_id=0}')).toBe('E_BAD_ATTRIBUTE@3');
    expect(await failure('{login}')).toBe('E_MISSING_ATTR@1');
    expect(await failure('{login member_id=2 overwrite="yes"}')).toBe('E_BAD_ATTRIBUTE@1');
  });

  it('overwrite=false keeps a session the request has; overwrite=true replaces it and ends the old one', async () => {
    const old = await sessionOf('{login member_id=2}');
    const cookies = { [SESSION_COOKIE]: old };
    const kept = await run(`{login member_id=3}${ME}`, { request: { cookies } });
    expect(kept.output).toBe('[2]');
    expect(kept.setCookies.has(SESSION_COOKIE)).toBe(false);
    const replaced = await run(`{login member_id=3 overwrite=true}${ME}`, { request: { cookies } });
    expect(replaced.output).toBe('[3]');
    expect(await memberOfSession(site, old)).toBeNull();
    expect(await memberOfSession(site, replaced.setCookies.get(SESSION_COOKIE)!.value)).toBe(3);
  });

  it('a member_id is checked even where a session is kept', async () => {
    const old = await sessionOf('{login member_id=2}');
    expect(await failure('{login member_id=1}', { request: { cookies: { [SESSION_COOKIE]: old } } })).toBe(
      'E_IDENTITY_DENIED@1',
    );
  });

  it("another site's session cookie is no session here", async () => {
    const theirs = await renderOnSite(other, '{login member_id=2}', { name: 'x.tpl' });
    const value = theirs.setCookies.get(SESSION_COOKIE)!.value;
    expect(await memberOfSession(other, value)).toBe(2);
    expect(await memberOfSession(site, value)).toBeNull();
    const r = await run(`{$smarty.session.member_id}${ME}`, { request: { cookies: { [SESSION_COOKIE]: value } } });
    expect(r.output).toBe('[]');
  });

  it('a login that fails halfway leaves the old session as it was', async () => {
    const old = await sessionOf('{login member_id=2}');
    const requestId = 'torn-login';
    site.requests.begin(requestId, { jar: { cookies: new Map([[SESSION_COOKIE, old]]), outgoing: new Map() } });
    try {
      // The old session's row is deleted first; a member id the table refuses fails the insert after it.
      await expect(site.host.sessions!.start(requestId, null as unknown as number)).rejects.toThrow();
    } finally {
      site.requests.end(requestId);
    }
    expect(await memberOfSession(site, old)).toBe(2);
  });

  it('logout ends the session: row gone, cookie cleared, the next request has no member', async () => {
    const id = await sessionOf('{login member_id=2}');
    const r = await run(`{logout}${ME}`, { request: { cookies: { [SESSION_COOKIE]: id } } });
    expect(r.output).toBe('[]');
    expect(r.memberId).toBe(2);
    expect(r.setCookies.get(SESSION_COOKIE)).toEqual({ value: '', maxAge: 0, httpOnly: true });
    expect(await memberOfSession(site, id)).toBeNull();
    const none = await run('{logout}');
    expect(none.setCookies.size).toBe(0);
  });
});
