/**
 * {assign_api_credential} on a real site, both backends: what the credential holds can be
 * checked by whoever shares its keys, the keys themselves never reach the template, and the
 * member_id rules of {login} hold.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { renderOnSite, type SiteRenderOptions } from '../../../src/site/render.js';
import { memberOfAccessToken, memberOfSession } from '../../../src/site/adapters/sessions.js';
import { verifyCredentialJwt } from '../../../src/host-plugins/session/assign_api_credential.js';
import { eachBackend } from '../../site/support/backends.js';
import { siteWith, failureOf, type TestSite } from '../../site/support/site-with.js';

const API_KEY = 'the-real-api-key-0123456789';
const hmac = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');
const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

eachBackend('{assign_api_credential}', (backend) => {
  let site: TestSite;
  let other: TestSite;
  beforeAll(async () => {
    site = await siteWith(backend, { files: { 'secrets.json': JSON.stringify({ API_KEY: { value: API_KEY } }) } });
    other = await siteWith(backend);
  });
  afterAll(async () => {
    await site.done();
    await other.done();
  });

  const run = (src: string, opts: Partial<SiteRenderOptions> = {}) =>
    renderOnSite(site, src, { name: 'cred.tpl', ...opts });
  const credential = async (attrs: string, opts: Partial<SiteRenderOptions> = {}) =>
    JSON.parse((await run(`{assign_api_credential ${attrs} var=c}{$c|@json_encode}`, opts)).output) as Record<
      string,
      string | null
    >;
  const failure = (src: string, opts: Partial<SiteRenderOptions> = {}) => failureOf(run(src, opts));
  const siteKey = () => site.host.crypto!.siteKey();

  it('without member_id: a signature of sid under api_key, DG_CODE under dg_key, a jwt the site can verify', async () => {
    const c = await credential('api_key="k1" dg_key="dk" dg_id="unit-7"');
    expect(Object.keys(c)).toEqual(['signature', 'DG_CODE', 'sid', 'jwt']);
    expect(c.sid).toMatch(/^[0-9a-f]{32}$/);
    expect(c.signature).toBe(hmac('k1', c.sid!));
    expect(c.DG_CODE).toBe(hmac('dk', `unit-7:${c.sid}`));
    const claims = verifyCredentialJwt(await siteKey(), site.tenant, c.jwt!, Math.floor(Date.now() / 1000));
    expect(claims).toMatchObject({ iss: site.tenant, sid: c.sid });
    expect((claims!.exp as number) - (claims!.iat as number)).toBe(3600);
  });

  it('a new sid each time; DG_CODE null without dg_key and dg_id', async () => {
    const a = await credential('api_key="k1"');
    const b = await credential('api_key="k1"');
    expect(a.sid).not.toBe(b.sid);
    expect(a.DG_CODE).toBeNull();
  });

  it("jwt_data rides as the data claim, in PHP's JSON; expire sets exp", async () => {
    const r = await run(
      '{assign_array var=d keys="plan,ids" values="pro,x"}{assign_array var=ids values="3,1"}{assign var=d.ids value=$ids}{assign_api_credential api_key="k" jwt_data=$d expire=60 var=c}{$c.jwt}',
    );
    const claims = claimsOf(r.output);
    expect(claims.data).toEqual({ plan: 'pro', ids: ['3', '1'] });
    expect((claims.exp as number) - (claims.iat as number)).toBe(60);
  });

  it('a jwt of another site key, or tampered, or expired, does not verify', async () => {
    const c = await credential('api_key="k"');
    const now = Math.floor(Date.now() / 1000);
    expect(verifyCredentialJwt(await other.host.crypto!.siteKey(), site.tenant, c.jwt!, now)).toBeNull();
    const [h, p, s] = c.jwt!.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claimsOf(c.jwt!), sid: 'x' })).toString('base64url');
    expect(verifyCredentialJwt(await siteKey(), site.tenant, `${h}.${forged}.${s}`, now)).toBeNull();
    expect(verifyCredentialJwt(await siteKey(), site.tenant, `${h}.${p}.${s}`, now + 3601)).toBeNull();
    expect(verifyCredentialJwt(await siteKey(), 'another-site', c.jwt!, now)).toBeNull();
  });

  it('with member_id: a session of that member and its access token, both usable; the jwt names the member', async () => {
    const c = await credential('api_key="k" member_id=2 expire=600');
    expect(Object.keys(c)).toEqual(['session_id', 'X-RCMS-API-ACCESS-TOKEN', 'jwt']);
    expect(await memberOfSession(site, c.session_id!)).toBe(2);
    expect(await memberOfAccessToken(site, c['X-RCMS-API-ACCESS-TOKEN']!)).toBe(2);
    expect(await memberOfSession(other, c.session_id!)).toBeNull();
    expect(await memberOfAccessToken(other, c['X-RCMS-API-ACCESS-TOKEN']!)).toBeNull();
    expect(claimsOf(c.jwt!)).toMatchObject({ iss: site.tenant, member_id: 2 });
    expect(claimsOf(c.jwt!).sid).toBeUndefined();
  });

  it('api_key as a secret: signed with its value, which the template never sees', async () => {
    const r = await run('{secret var=k key="API_KEY"}{assign_api_credential api_key=$k var=c}{$c|@json_encode}');
    const c = JSON.parse(r.output) as Record<string, string>;
    expect(c.signature).toBe(hmac(API_KEY, c.sid!));
    expect(r.output).not.toContain(API_KEY);
  });

  it('secrets are refused where the credential would show them: jwt_data, dg_id', async () => {
    expect(
      await failure(
        '{secret var=k key="API_KEY"}{assign_array var=d values=$k}\n{assign_api_credential api_key="x" jwt_data=$d var=c}',
      ),
    ).toBe('E_SECRET_DENIED@2');
    expect(
      await failure('{secret var=k key="API_KEY"}{assign_api_credential api_key="x" dg_key="y" dg_id=$k var=c}'),
    ).toBe('E_SECRET_DENIED@1');
  });

  it('member_id: never a super user, a member of this site, a literal unless a super user renders', async () => {
    expect(await failure('{assign_api_credential api_key="k" member_id=1 var=c}')).toBe('E_IDENTITY_DENIED@1');
    expect(await failure('{assign_api_credential api_key="k" member_id=99 var=c}')).toBe('E_NOT_FOUND@1');
    expect(await failure('{assign var=m value=2}\n{assign_api_credential api_key="k" member_id=$m var=c}')).toBe(
      'E_IDENTITY_DENIED@2',
    );
    const r = await run(
      '{assign var=m value=2}{assign_api_credential api_key="k" member_id=$m var=c}{$c.jwt|substr_count:"."}',
      { memberId: 1 },
    );
    expect(r.output).toBe('2');
  });

  it('bad attributes are errors at their line', async () => {
    expect(await failure('{assign_api_credential var=c}')).toBe('E_MISSING_ATTR@1');
    expect(await failure('\n{assign_api_credential api_key="" var=c}')).toBe('E_BAD_ATTRIBUTE@2');
    expect(await failure('{assign_api_credential api_key="k" dg_key="x" var=c}')).toBe('E_BAD_COMBINATION@1');
    expect(await failure('{assign_api_credential api_key="k" expire=2592001 var=c}')).toBe('E_BAD_ATTRIBUTE@1');
    expect(
      await failure(
        '{assign_array var=d values="x"}{assign var=big value="x"|str_pad:5000:"x"}{assign var=d.0 value=$big}{assign_api_credential api_key="k" jwt_data=$d var=c}',
      ),
    ).toBe('E_SIZE_LIMIT@1');
  });
});
