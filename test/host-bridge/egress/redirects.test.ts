/**
 * NET-06: redirects are followed by the guard, one hop at a time, each hop checked like a new
 * request: at most maxRedirects, no https->http, credentials dropped across origins, 303 to GET;
 * a request that carries a secret never leaves its origin (HH-03).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressError, EgressGuard, type EgressResponse } from '../../../src/host-adapters/egress/index.js';
import { CERT, mapResolver, PUBLIC_IP, startTestNet, type TestNet } from '../../support/egress-servers.js';

let net: TestNet;
let guard: EgressGuard;
beforeAll(async () => {
  net = await startTestNet();
  guard = new EgressGuard(
    { allowedPorts: [80, 443, net.port, net.httpsPort], treatAsPublic: [PUBLIC_IP], timeoutMs: 5000 },
    mapResolver({ 'public.test': [PUBLIC_IP], 'other.test': [PUBLIC_IP], 'internal.test': ['127.0.0.1'] }),
    { ca: CERT },
  );
});
afterAll(async () => {
  await guard.close();
  await net.close();
});

const base = (): string => `http://public.test:${net.port}`;
const redirect = (to: string, status = 302, from = base()): string =>
  `${from}/redirect?status=${status}&to=${encodeURIComponent(to)}`;
const echo = (r: EgressResponse) =>
  JSON.parse(Buffer.from(r.body).toString()) as {
    method: string;
    headers: Record<string, string>;
    body: string;
    url: string;
  };

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'OK';
  } catch (e) {
    return e instanceof EgressError ? e.code : `RAW ${String(e)}`;
  }
}

describe('redirects (NET-06)', () => {
  const internalTargets = (): string[] => [
    `http://127.0.0.1:${net.port}/`,
    'http://169.254.169.254/latest/meta-data/',
    `//127.0.0.1:${net.port}/`,
    `http://[::1]:${net.port}/`,
    `http://[::ffff:127.0.0.1]:${net.port}/`,
    `http://2130706433:${net.port}/`,
    `http://localhost:${net.port}/`,
    `http://internal.test:${net.port}/`,
    `\\\\127.0.0.1:${net.port}/`,
    `http://user:pw@public.test:${net.port}/echo`,
    'file:///etc/passwd',
    `gopher://127.0.0.1:${net.port}/`,
    `http://public.test:6379/`,
  ];

  for (const status of [301, 302, 303, 307, 308]) {
    it(`${status} to internal targets is refused at the hop`, async () => {
      for (const to of internalTargets()) {
        const c = await code(
          guard.fetch({
            method: status === 307 ? 'POST' : 'GET',
            url: redirect(to, status),
            body: status === 307 ? 'payload' : undefined,
          }),
        );
        expect(['E_SSRF_DENIED', 'E_BAD_URL'], `${status} -> ${to}`).toContain(c);
      }
      expect(net.canary.connections).toBe(0);
    });
  }

  it('the denial names the redirect target as given, not a resolved address', async () => {
    const err = await guard
      .fetch({ method: 'GET', url: redirect(`http://internal.test:${net.port}/x`) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EgressError);
    expect((err as EgressError).message).toContain(`internal.test:${net.port}/x`);
    expect((err as EgressError).message).not.toContain('127.0.0.1');
  });

  it('a chain of 20 hops stops after 5', async () => {
    const before = net.seen.length;
    expect(await code(guard.fetch({ method: 'GET', url: `${base()}/chain/0?stop=20` }))).toBe('E_HTTP_LIMIT');
    const hops = net.seen.slice(before).filter((s) => s.url.startsWith('/chain/'));
    expect(hops.length).toBe(6); // the request and 5 redirects; the 6th redirect is not followed
  });

  it('exactly 5 hops succeed, 6 do not', async () => {
    const ok = await guard.fetch({ method: 'GET', url: `${base()}/chain/0?stop=5` });
    expect(ok.redirects).toBe(5);
    expect(Buffer.from(ok.body).toString()).toBe('end of chain at 5');
    expect(ok.url).toBe(`${base()}/chain/5?stop=5`);
    expect(await code(guard.fetch({ method: 'GET', url: `${base()}/chain/0?stop=6` }))).toBe('E_HTTP_LIMIT');
  });

  it('maxRedirects 0 refuses the first redirect', async () => {
    const g = new EgressGuard(
      { allowedPorts: [net.port], treatAsPublic: [PUBLIC_IP], maxRedirects: 0 },
      mapResolver({ 'public.test': [PUBLIC_IP] }),
    );
    try {
      expect(await code(g.fetch({ method: 'GET', url: redirect('/echo') }))).toBe('E_HTTP_LIMIT');
    } finally {
      await g.close();
    }
  });

  it('https -> http downgrade is refused and the http target sees nothing', async () => {
    const before = net.seen.length;
    const from = `https://public.test:${net.httpsPort}`;
    expect(
      await code(
        guard.fetch({ method: 'GET', url: redirect(`http://public.test:${net.port}/echo?downgraded`, 302, from) }),
      ),
    ).toBe('E_SSRF_DENIED');
    const after = net.seen.slice(before);
    expect(after.map((s) => s.tls)).toEqual([true]);
  });

  it('http -> https upgrade is followed', async () => {
    const r = await guard.fetch({ method: 'GET', url: redirect(`https://public.test:${net.httpsPort}/echo`) });
    expect(r.redirects).toBe(1);
    expect(r.url).toBe(`https://public.test:${net.httpsPort}/echo`);
  });

  it('cross-origin hop drops Authorization and Cookie, keeps other headers', async () => {
    const r = await guard.fetch({
      method: 'GET',
      url: redirect(`http://other.test:${net.port}/echo`),
      headers: [
        ['Authorization', 'Bearer secret'],
        ['Cookie', 'sid=secret'],
        ['X-Keep', 'kept'],
      ],
    });
    const h = echo(r).headers;
    expect(h.authorization).toBeUndefined();
    expect(h.cookie).toBeUndefined();
    expect(h['x-keep']).toBe('kept');
    expect(h.host).toBe(`other.test:${net.port}`);
    // The first hop did carry them.
    const first = net.seen.filter((s) => s.url.startsWith('/redirect') && s.headers.authorization === 'Bearer secret');
    expect(first.length).toBeGreaterThan(0);
  });

  it('a request that carries a secret follows same-origin hops with it, and answers a cross-origin 3xx as the response', async () => {
    const req = (url: string) =>
      guard.fetch({
        method: 'GET',
        url,
        headers: [
          ['X-Api-Key', 'k-secret'],
          ['X-Keep', 'kept'],
        ],
        secretHeaders: ['x-api-key'],
      });
    const same = await req(redirect('/echo'));
    expect(same.redirects).toBe(1);
    expect(echo(same).headers['x-api-key']).toBe('k-secret');
    const before = net.seen.length;
    for (const status of [301, 302, 303, 307, 308]) {
      const away = await req(redirect(`http://other.test:${net.port}/echo?k=k-secret`, status));
      expect(away.status).toBe(status);
      expect(away.redirects).toBe(0);
      expect(away.headers).toContainEqual(['location', `http://other.test:${net.port}/echo?k=k-secret`]);
      expect(Buffer.from(away.body).toString()).toBe('redirecting');
    }
    // A Location that does not parse is not followed either (it is the caller's to read).
    const bad = await req(redirect('http://[not-an-address/'));
    expect(bad.status).toBe(302);
    expect(net.seen.slice(before).filter((x) => x.host.startsWith('other.test')).length).toBe(0);
    // Without a secret the same redirect is followed, credentials dropped.
    const plain = await guard.fetch({
      method: 'GET',
      url: redirect(`http://other.test:${net.port}/echo`),
      headers: [['X-Keep', 'kept']],
    });
    expect(plain.redirects).toBe(1);
  });

  it('a body that holds a secret is resent within the origin (307), never to another origin', async () => {
    const before = net.seen.length;
    for (const status of [303, 307, 308]) {
      const r = await guard.fetch({
        method: 'POST',
        url: redirect(`http://other.test:${net.port}/echo`, status),
        body: 'k=secret',
        secretBody: true,
      });
      expect(r.status).toBe(status);
    }
    expect(net.seen.slice(before).filter((x) => x.host.startsWith('other.test')).length).toBe(0);
    const same = await guard.fetch({ method: 'POST', url: redirect('/echo', 307), body: 'k=secret', secretBody: true });
    expect(echo(same).body).toBe(Buffer.from('k=secret').toString('base64'));
    const asGet = await guard.fetch({
      method: 'POST',
      url: redirect('/echo', 303),
      body: 'k=secret',
      secretBody: true,
    });
    expect(echo(asGet).method).toBe('GET');
    expect(echo(asGet).body).toBe('');
  });

  it('credentials stay dropped when a later hop comes back to the first origin', async () => {
    const back = redirect(`${base()}/echo`, 302, `http://other.test:${net.port}`);
    const r = await guard.fetch({ method: 'GET', url: redirect(back), headers: [['Authorization', 'Bearer secret']] });
    expect(r.redirects).toBe(2);
    expect(echo(r).headers.authorization).toBeUndefined();
  });

  it('a different port is a different origin', async () => {
    const r = await guard.fetch({
      method: 'GET',
      url: redirect(`https://public.test:${net.httpsPort}/echo`),
      headers: [['Cookie', 'c=1']],
    });
    expect(echo(r).headers.cookie).toBeUndefined();
  });

  it('same-origin hop keeps Authorization', async () => {
    const r = await guard.fetch({ method: 'GET', url: redirect('/echo'), headers: [['Authorization', 'Bearer same']] });
    expect(echo(r).headers.authorization).toBe('Bearer same');
  });

  it('303 turns POST into GET without body or content headers', async () => {
    const r = await guard.fetch({
      method: 'POST',
      url: redirect('/echo', 303),
      body: 'payload',
      headers: [['Content-Type', 'text/plain']],
    });
    const e = echo(r);
    expect(e.method).toBe('GET');
    expect(e.body).toBe('');
    expect(e.headers['content-type']).toBeUndefined();
    expect(e.headers['content-length']).toBeUndefined();
  });

  it('303 keeps HEAD', async () => {
    const before = net.seen.length;
    const r = await guard.fetch({ method: 'HEAD', url: redirect('/echo', 303) });
    expect(r.status).toBe(200);
    expect(net.seen.slice(before).map((s) => s.method)).toEqual(['HEAD', 'HEAD']);
  });

  it('301 and 302 turn POST into GET; PUT stays PUT on 302', async () => {
    for (const status of [301, 302]) {
      expect(echo(await guard.fetch({ method: 'POST', url: redirect('/echo', status), body: 'x' })).method).toBe('GET');
    }
    const put = echo(await guard.fetch({ method: 'PUT', url: redirect('/echo', 302), body: 'x' }));
    expect(put.method).toBe('PUT');
    expect(Buffer.from(put.body, 'base64').toString()).toBe('x');
  });

  it('307 and 308 keep method and body', async () => {
    for (const status of [307, 308]) {
      const e = echo(await guard.fetch({ method: 'POST', url: redirect('/echo', status), body: 'keep me' }));
      expect(e.method).toBe('POST');
      expect(Buffer.from(e.body, 'base64').toString()).toBe('keep me');
    }
  });

  it('relative Location resolves against the current URL; fragment dropped', async () => {
    const r = await guard.fetch({ method: 'GET', url: redirect('echo?rel=1#frag') });
    expect(echo(r).url).toBe('/echo?rel=1');
  });

  it('never touched the canary', () => {
    expect(net.canary.connections).toBe(0);
  });
});
