/**
 * {api} against real servers: the allow-side server of the egress tests on 127.0.0.2 (public
 * for this guard only), a canary on the same port on every other local address, the real
 * EgressGuard, the real engine and bridge.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EgressGuard } from '../../../../src/host-adapters/egress/index.js';
import type { SecretRecord, HostResolver } from '../../../../src/host-api/host.js';
import { TemplateError } from '../../../../src/errors.js';
import { hostStateOf } from '../../../../src/engine-internal.js';
import { MAX_REQUESTS_PER_RENDER } from '../../../../src/host-plugins/api/common.js';
import { MAX_TRANSFER_DEPTH } from '../../../../src/protocol/transfer.js';
import { CERT, mapResolver, PUBLIC_IP, startTestNet, type TestNet } from '../../../support/egress-servers.js';
import { testEngine } from '../../../support/engine.js';
import type { Engine } from '../../../../src/index.js';

const SECRETS: Record<string, Record<string, SecretRecord>> = {
  default: {
    TOKEN: { value: 'tok-value-123456', hosts: ['public.test'] },
    PLAIN: { value: 'plain-http-secret', hosts: ['http://public.test'] },
    OTHER: { value: 'other-secret-999', hosts: ['other.test'] },
    NOWHERE: { value: 'nowhere-secret-1' },
  },
  b: { TOKEN: { value: 'tenant-b-token-77', hosts: ['public.test'] } },
};

let net: TestNet;
let guard: EgressGuard;

const host =
  (): HostResolver =>
  ({ tenant }) => ({
    http: { fetch: (req) => guard.fetch(req) },
    secrets: {
      async get(name) {
        const t = SECRETS[tenant];
        return t && Object.prototype.hasOwnProperty.call(t, name) ? t[name]! : null;
      },
    },
  });

beforeAll(async () => {
  net = await startTestNet();
  guard = new EgressGuard(
    { allowedPorts: [net.port, net.httpsPort], treatAsPublic: [PUBLIC_IP], timeoutMs: 10_000 },
    mapResolver({ 'public.test': [PUBLIC_IP], 'other.test': [PUBLIC_IP] }),
    { ca: CERT },
  );
});
const engine: Engine = testEngine({ host: host() });
const short: Engine = testEngine({ host: host(), limits: { wallMs: 1500 } });
afterAll(async () => {
  await guard.close();
  await net.close();
});
beforeEach(() => {
  for (const e of [engine, short]) hostStateOf(e).apiCache.clear();
});

const base = (path = '/echo'): string => `http://public.test:${net.port}${path}`;
/** Secrets go to https origins (unless their record names http://). */
const secure = (path = '/echo'): string => `https://public.test:${net.httpsPort}${path}`;

async function render(
  t: string,
  vars: Record<string, unknown> = {},
  opts: { tenant?: string; e?: Engine } = {},
): Promise<string> {
  const r = await (opts.e ?? engine).render(t, {
    vars: { u: base(), ...vars },
    identity: opts.tenant ? { tenant: opts.tenant } : undefined,
  });
  return r.output;
}

async function fails(
  t: string,
  vars: Record<string, unknown> = {},
  opts: { tenant?: string; e?: Engine } = {},
): Promise<TemplateError> {
  try {
    await render(t, vars, opts);
  } catch (e) {
    expect(e).toBeInstanceOf(TemplateError);
    return e as TemplateError;
  }
  throw new Error('expected the render to fail');
}

interface Echo {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}
const echoOf = async (t: string, vars: Record<string, unknown> = {}): Promise<Echo> => {
  const out = await render(`${t}{$r}`, vars);
  const e = JSON.parse(out) as Echo;
  return { ...e, body: Buffer.from(e.body, 'base64').toString('utf8') };
};

describe('{api} requests', () => {
  it('GET with var, status_var, http_code_var', async () => {
    expect(await render('{api endpoint=$u var=r status_var=s http_code_var=c}{$s} {$c} {$r|substr:0:11}')).toBe(
      '1 200 {"method":"',
    );
  });

  it('query and queries are appended in order', async () => {
    const e = await echoOf(
      '{assign_array var=q keys="x,y" values="1,a b"}{api endpoint=$u query="a=1&b=2" queries=$q var=r}',
    );
    expect(e.url).toBe('/echo?a=1&b=2&x=1&y=a+b');
    const e2 = await echoOf('{api endpoint=$u query="c=3" var=r}', { u: base('/echo?z=0') });
    expect(e2.url).toBe('/echo?z=0&c=3');
  });

  // D320: a list too long for any URL is refused before it is encoded (same code as the guard's).
  it('queries with more values than a URL can carry: E_BAD_URL before encoding; one that fits is sent', async () => {
    const values = (n: number) => ','.repeat(n - 1);
    const over = await fails('{assign var=q value=","|explode:$s}{api endpoint=$u queries=$q var=r}', {
      s: values(2732),
    });
    expect(over.code).toBe('E_BAD_URL');
    expect(over.message).toContain('queries= holds more values than a URL of 8192 characters');
    const nested = await fails('{api endpoint=$u queries=$q var=r}', {
      q: { a: Array.from({ length: 3000 }, () => ({ b: 'x' })) },
    });
    expect(nested.code).toBe('E_BAD_URL');
    // Null values write nothing (http_build_query skips them), so they do not count.
    const e = await echoOf('{api endpoint=$u queries=$q var=r}', { q: { ...Array(5000).fill(null), k: 'v' } });
    expect(e.url).toBe('/echo?k=v');
  });

  it('headers from "Name: value" strings; multibyte values go out as UTF-8', async () => {
    const e = await echoOf(
      '{append var=h value="X-One: 1"}{append var=h value="X-Two:two  "}{append var=h value="X-Name: 名前"}{api endpoint=$u headers=$h var=r}',
    );
    expect(e.headers['x-one']).toBe('1');
    expect(e.headers['x-two']).toBe('two');
    expect(Buffer.from(e.headers['x-name']!, 'latin1').toString('utf8')).toBe('名前');
  });

  it('json_body adds Content-Type application/json; body keeps the given type', async () => {
    const j = await echoOf('{api endpoint=$u method="POST" json_body=\'{"a":"é"}\' var=r}');
    expect(j.method).toBe('POST');
    expect(j.headers['content-type']).toBe('application/json');
    expect(j.body).toBe('{"a":"é"}');
    const b = await echoOf(
      '{append var=h value="Content-Type: text/plain"}{api endpoint=$u method="PUT" body="hello" headers=$h var=r}',
    );
    expect(b.method).toBe('PUT');
    expect(b.headers['content-type']).toBe('text/plain');
    expect(b.body).toBe('hello');
  });

  it('json_var decodes JSON, keeps text otherwise; resp_header_var lists headers', async () => {
    expect(await render('{api endpoint=$u json_var=j}{$j.method}')).toBe('GET');
    expect(await render('{api endpoint=$u json_var=j}{$j}', { u: base('/status/201') })).toBe('status 201');
    const pick = (name: string, f = '{$v}'): string =>
      `{api endpoint=$u resp_header_var=h}{foreach from=$h key=k item=v}{if $k=="${name}"}${f}{/if}{/foreach}`;
    expect(await render(pick('set-cookie', '{$v|@count}:{$v.0}'), { u: base('/cookies') })).toBe('2:a=1');
    expect(await render(pick('content-type'))).toBe('application/json');
  });

  it('json_var of JSON nested past what the bridge carries is a size limit named by its variable (D332)', async () => {
    const at = `${'.0'.repeat(MAX_TRANSFER_DEPTH)}`;
    expect(await render(`{api endpoint=$u json_var=j}{$j${at}}`, { u: base(`/nest/${MAX_TRANSFER_DEPTH}`) })).toBe('1');
    const deep = await fails('{api endpoint=$u json_var=j}after', { u: base(`/nest/${MAX_TRANSFER_DEPTH + 1}`) });
    expect(deep.code).toBe('E_SIZE_LIMIT');
    expect(deep.message).toContain(`{api} cannot give $j a value nested deeper than ${MAX_TRANSFER_DEPTH} levels`);
    expect([deep.line, deep.column]).toEqual([1, 1]);
    // PHP's json_decode takes 512 levels: deeper than that is not JSON to it, and json_var keeps the text.
    expect(await render('{api endpoint=$u json_var=j}{$j|strlen}', { u: base('/nest/600') })).toBe('1201');
  });

  it('json_var refuses an answer of more than 100,000 values before decoding it (D340)', async () => {
    // An array of n zeros is n + 1 values, as a host call counts them.
    expect(await render('{api endpoint=$u json_var=j}{$j|@count}', { u: base('/zeros?n=99999') })).toBe('99999');
    const e = await fails('{api endpoint=$u json_var=j}', { u: base('/zeros?n=100000') });
    expect(e.code).toBe('E_SIZE_LIMIT');
    // var= alone is text: not decoded, not bounded.
    expect(await render('{api endpoint=$u var=r}{$r|strlen}', { u: base('/zeros?n=100000') })).toBe('200001');
  });

  it('an HTTP error status is a response: status_var 0, code and body kept', async () => {
    expect(
      await render('{api endpoint=$u var=r status_var=s http_code_var=c}{$s} {$c} {$r}', { u: base('/status/503') }),
    ).toBe('0 503 status 503');
    expect(await render('{api endpoint=$u status_var=s http_code_var=c}{$s} {$c}', { u: base('/status/302') })).toBe(
      '1 302',
    );
  });

  it('a request that fails on the way sets status_var 0 and http_code_var 0 (spec)', async () => {
    const fetch = vi.spyOn(guard, 'fetch');
    try {
      expect(
        await render('{api endpoint=$u timeout=1 var=r status_var=s http_code_var=c}[{$s}/{$c}/{$r}]', {
          u: base('/hang'),
        }),
      ).toBe('[0/0/]');
      // timeout=1 reached the request as its deadline, and that deadline is what ended it
      expect(fetch).toHaveBeenCalledOnce();
      expect(fetch.mock.calls[0]![0]).toMatchObject({ timeoutMs: 1000 });
      expect(fetch.mock.settledResults[0]).toMatchObject({ type: 'rejected', value: { code: 'E_HTTP_TIMEOUT' } });
    } finally {
      fetch.mockRestore();
    }
  }, 10_000);

  it("the timeout is clamped to the render's remaining wall time", async () => {
    // Unclamped, the request would outlive the short engine's wall time and the render fail.
    expect(await render('{api endpoint=$u timeout=30 status_var=s}[{$s}]', { u: base('/hang') }, { e: short })).toBe(
      '[0]',
    );
  });

  it('timeout outside 1..3600 is an error (spec)', async () => {
    expect((await fails('{api endpoint=$u timeout=0}')).code).toBe('E_BAD_ATTRIBUTE');
    expect((await fails('{api endpoint=$u timeout=3601}')).code).toBe('E_BAD_ATTRIBUTE');
    expect((await fails('{api endpoint=$u timeout=$t}', { t: 99999 })).code).toBe('E_BAD_ATTRIBUTE');
  });

  it('bad combinations are E_BAD_COMBINATION; files and dl_flg without a files adapter E_HOST_CAPABILITY', async () => {
    expect((await fails('{api endpoint=$u dl_flg=true}')).code).toBe('E_HOST_CAPABILITY');
    expect((await fails('{assign_array var=f values="a.txt"}{api endpoint=$u method="POST" files=$f}')).code).toBe(
      'E_HOST_CAPABILITY',
    );
    expect((await fails('{assign_array var=f values="a.txt"}{api endpoint=$u files=$f}')).code).toBe(
      'E_BAD_COMBINATION',
    );
    expect((await fails('{api endpoint=$u body="x"}')).code).toBe('E_BAD_COMBINATION');
    expect((await fails('{api endpoint=$u method="POST" body="x" json_body="{}"}')).code).toBe('E_BAD_COMBINATION');
    expect((await fails('{api endpoint=$u method="get"}')).code).toBe('E_BAD_ATTR');
  });

  it("guard refusals are errors with the template's endpoint in the message, never a resolved address", async () => {
    const ssrf = await fails('{api endpoint=$u status_var=s}', { u: `http://127.0.0.1:${net.port}/` });
    expect(ssrf.code).toBe('E_SSRF_DENIED');
    const redirect = await fails('{api endpoint=$u status_var=s}', {
      u: base(`/redirect?to=${encodeURIComponent(`http://127.0.0.1:${net.port}/`)}`),
    });
    expect(redirect.code).toBe('E_SSRF_DENIED');
    expect(redirect.message).toContain('/redirect?to=');
    expect((await fails('{api endpoint=$u}', { u: 'not a url' })).code).toBe('E_BAD_URL');
    expect((await fails('{append var=h value="Host: x"}{api endpoint=$u headers=$h}')).code).toBe('E_BAD_HEADER');
    expect((await fails('{append var=h value="nocolon"}{api endpoint=$u headers=$h}')).code).toBe('E_BAD_HEADER');
    expect(net.canary.connections).toBe(0);
  });
});

describe('{api} secrets', () => {
  it('a handle is substituted in headers and body for an https origin the secret lists', async () => {
    const e = await echoOf(
      '{secret var=t key="TOKEN"}{append var=h value="Authorization: Bearer `$t`"}{api endpoint=$u method="POST" headers=$h body="b=`$t`" var=r}',
      {
        u: secure(),
      },
    );
    // The echo server sends the secret back: it reaches the template redacted (secret-redaction.test.ts).
    expect(e.headers.authorization).toBe('Bearer [secret:TOKEN redacted]');
    const seen = net.seen.at(-1)!;
    expect(seen.tls).toBe(true);
    expect(seen.headers.authorization).toBe('Bearer tok-value-123456');
    expect(seen.body.toString()).toBe('b=tok-value-123456');
  });

  it('a handle is refused for a host the secret does not list, in the endpoint, query, queries, names and keys', async () => {
    const before = net.seen.length;
    const D = 'E_SECRET_DENIED';
    const u = secure();
    expect(
      (await fails('{secret var=t key="OTHER"}{append var=h value="X-K: `$t`"}{api endpoint=$u headers=$h}', { u }))
        .code,
    ).toBe(D);
    expect((await fails('{secret var=t key="NOWHERE"}{api endpoint=$u query="k=`$t`"}', { u })).code).toBe(D);
    expect((await fails('{secret var=t key="TOKEN"}{api endpoint="`$u`?k=`$t`"}', { u })).code).toBe(D);
    expect((await fails('{secret var=t key="TOKEN"}{api endpoint=$u query="k=`$t`"}', { u })).code).toBe(D);
    expect(
      (
        await fails('{secret var=t key="TOKEN"}{assign_array var=q keys="k2" values=$t}{api endpoint=$u queries=$q}', {
          u,
        })
      ).code,
    ).toBe(D);
    expect(
      (
        await fails('{secret var=t key="TOKEN"}{assign_array var=q keys=$t values="1"}{api endpoint=$u queries=$q}', {
          u,
        })
      ).code,
    ).toBe(D);
    expect(
      (await fails('{secret var=t key="OTHER"}{api endpoint=$u method="POST" json_body="`$t`"}', { u })).code,
    ).toBe(D);
    expect(net.seen.length).toBe(before);
  });

  it('plain http only for a secret whose record names http://', async () => {
    const before = net.seen.length;
    const err = await fails('{secret var=t key="TOKEN"}{append var=h value="X-K: `$t`"}{api endpoint=$u headers=$h}');
    expect(err.code).toBe('E_SECRET_DENIED');
    expect(err.message).toContain('http://public.test');
    expect((await fails('{secret var=t key="TOKEN"}{api endpoint=$u method="POST" body="`$t`"}')).code).toBe(
      'E_SECRET_DENIED',
    );
    expect(net.seen.length).toBe(before);
    await render(
      '{secret var=t key="PLAIN"}{append var=h value="X-K: `$t`"}{api endpoint=$u headers=$h status_var=s}{$s}',
    );
    expect(net.seen.at(-1)!.headers['x-k']).toBe('plain-http-secret');
    // An http:// record allows https too.
    await render(
      '{secret var=t key="PLAIN"}{append var=h value="X-K: `$t`"}{api endpoint=$u headers=$h status_var=s}{$s}',
      { u: secure() },
    );
    expect(net.seen.at(-1)!.tls).toBe(true);
  });

  it('a redirect to another origin is not followed when the request carries a secret: the 3xx comes back', async () => {
    // public.test may receive TOKEN; it answers with a redirect to other.test, which may not.
    const away = (status: number) =>
      secure(`/redirect?status=${status}&to=${encodeURIComponent(`https://other.test:${net.httpsPort}/echo`)}`);
    const before = net.seen.length;
    const t =
      '{api endpoint=$away headers=$h method=$m var=r http_code_var=c resp_header_var=rh}{$c} {$rh.location} {$r}';
    const out = await render(`{secret var=t key="TOKEN"}{append var=h value="X-Api-Key: \`$t\`"}${t}`, {
      away: away(302),
      m: 'GET',
    });
    expect(out).toBe(`302 https://other.test:${net.httpsPort}/echo redirecting`);
    const post = await render(
      `{secret var=t key="TOKEN"}{api endpoint=$away method="POST" body="k=\`$t\`" http_code_var=c}{$c}`,
      { away: away(307) },
    );
    expect(post).toBe('307');
    expect(net.seen.slice(before).filter((s) => s.host.startsWith('other.test')).length).toBe(0);
    // Without a secret the same redirect is followed.
    expect(await render('{api endpoint=$away http_code_var=c}{$c}', { away: away(302) })).toBe('200');
  });

  it('mTLS secret names: missing -> E_SECRET_NOT_FOUND, wrong host -> E_SECRET_DENIED, not PEM -> E_BAD_ATTRIBUTE (api-mtls.test.ts: the real thing)', async () => {
    const u = secure();
    expect((await fails('{api endpoint=$u sslcert="NOPE" sslkey="NOPE"}', { u })).code).toBe('E_SECRET_NOT_FOUND');
    expect((await fails('{api endpoint=$u sslcert="OTHER" sslkey="OTHER"}', { u })).code).toBe('E_SECRET_DENIED');
    expect((await fails('{api endpoint=$u sslcert="TOKEN"}', { u })).code).toBe('E_BAD_COMBINATION');
    const ni = await fails('{api endpoint=$u sslcert="TOKEN" sslkey="TOKEN" cainfo="TOKEN"}', { u });
    expect(ni.code).toBe('E_BAD_ATTRIBUTE');
    expect(ni.message).not.toContain('tok-value');
    expect((await fails('{api endpoint=$u sslcert="TOKEN" sslkey="TOKEN"}')).code).toBe('E_SECRET_DENIED');
  });
});

describe('{api} cache and caps', () => {
  it('cache_time serves GET from a per-tenant cache keyed by URL and headers', async () => {
    const t = '{if $p}{append var=h value="X-P: 1"}{/if}{api endpoint=$u headers=$h cache_time=5 var=r}{$r}';
    const u = base('/echo?c=1');
    const before = net.seen.length;
    const a1 = await render(t, { u, p: true });
    const a2 = await render(t, { u, p: true });
    expect(a2).toBe(a1);
    expect(net.seen.length - before).toBe(1);
    await render(t, { u, p: false });
    await render(t, { u, p: true }, { tenant: 'b' });
    expect(net.seen.length - before).toBe(3);
    // POST is never cached
    await render('{api endpoint=$u method="POST" body="x" cache_time=5 var=r}', { u });
    await render('{api endpoint=$u method="POST" body="x" cache_time=5 var=r}', { u });
    expect(net.seen.length - before).toBe(5);
  });

  it("another engine of the process, with the same tenant name, never gets this engine's cached answer", async () => {
    const t = '{api endpoint=$u cache_time=5 var=r}{$r}';
    const u = base('/echo?engines=1');
    const before = net.seen.length;
    await render(t, { u });
    await render(t, { u });
    expect(net.seen.length - before).toBe(1);
    await render(t, { u }, { e: short });
    await render(t, { u }, { e: short });
    expect(net.seen.length - before).toBe(2);
  });

  it(`at most ${MAX_REQUESTS_PER_RENDER} requests per render (E_QUOTA)`, async () => {
    const before = net.seen.length;
    const e = await fails(
      `{section name=i loop=${MAX_REQUESTS_PER_RENDER + 1}}{api endpoint=$u status_var=s}{/section}`,
      { u: base('/bytes/1') },
    );
    expect(e.code).toBe('E_QUOTA');
    expect(net.seen.length - before).toBe(MAX_REQUESTS_PER_RENDER);
  });
});
