/**
 * The other side of the guard: ordinary requests to a "public" server work, byte for byte.
 * The server is bound on 127.0.0.2, made public for this guard only with `treatAsPublic`,
 * and reached by name (`public.test`, through a test resolver) or by literal address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressGuard, type EgressRequest, type EgressResponse } from '../../../src/host-adapters/egress/index.js';
import { CERT, mapResolver, pattern, PUBLIC_IP, startTestNet, type TestNet } from '../../support/egress-servers.js';

let net: TestNet;
let guard: EgressGuard;
beforeAll(async () => {
  net = await startTestNet();
  guard = new EgressGuard(
    {
      allowedPorts: [net.port, net.httpsPort, net.rawPort],
      treatAsPublic: [PUBLIC_IP],
      maxResponseBytes: 1024 * 1024,
      timeoutMs: 5000,
    },
    mapResolver({ 'public.test': [PUBLIC_IP], 'other.test': [PUBLIC_IP] }),
    { ca: CERT },
  );
});
afterAll(async () => {
  await guard.close();
  await net.close();
});

const base = (): string => `http://public.test:${net.port}`;
const text = (r: EgressResponse): string => Buffer.from(r.body).toString('utf8');
const header = (r: EgressResponse, name: string): string[] => r.headers.filter(([n]) => n === name).map(([, v]) => v);
interface Echo {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  body: string;
  tls: boolean;
}
const echo = (r: EgressResponse): Echo => JSON.parse(text(r)) as Echo;

interface AllowCase {
  name: string;
  req: () => EgressRequest;
  verify: (r: EgressResponse) => void;
}

const CASES: AllowCase[] = [
  {
    name: 'GET by name',
    req: () => ({ method: 'GET', url: `${base()}/echo` }),
    verify: (r) => {
      expect(r.status).toBe(200);
      expect(echo(r).method).toBe('GET');
      expect(echo(r).headers.host).toBe(`public.test:${net.port}`);
      expect(r.redirects).toBe(0);
    },
  },
  {
    name: 'GET by literal address (treatAsPublic)',
    req: () => ({ method: 'GET', url: `http://${PUBLIC_IP}:${net.port}/echo` }),
    verify: (r) => expect(echo(r).headers.host).toBe(`${PUBLIC_IP}:${net.port}`),
  },
  {
    name: 'lower-case method, query kept, fragment dropped',
    req: () => ({ method: 'get', url: `${base()}/echo?a=1&b=%20x#frag` }),
    verify: (r) => {
      expect(echo(r).url).toBe('/echo?a=1&b=%20x');
      expect(r.url).toBe(`${base()}/echo?a=1&b=%20x`);
    },
  },
  {
    name: 'empty body',
    req: () => ({ method: 'GET', url: `${base()}/bytes/0` }),
    verify: (r) => expect(r.body.length).toBe(0),
  },
  {
    name: '100 000 bytes with content-length',
    req: () => ({ method: 'GET', url: `${base()}/bytes/100000` }),
    verify: (r) => expect(Buffer.from(r.body).equals(pattern(100000))).toBe(true),
  },
  {
    name: '300 000 bytes chunked',
    req: () => ({ method: 'GET', url: `${base()}/bytes/300000?chunked=1` }),
    verify: (r) => expect(Buffer.from(r.body).equals(pattern(300000))).toBe(true),
  },
  {
    name: 'exactly the cap (1 MiB)',
    req: () => ({ method: 'GET', url: `${base()}/bytes/${1024 * 1024}?chunked=1` }),
    verify: (r) => expect(Buffer.from(r.body).equals(pattern(1024 * 1024))).toBe(true),
  },
  {
    name: 'HEAD',
    req: () => ({ method: 'HEAD', url: `${base()}/bytes/100` }),
    verify: (r) => {
      expect(r.status).toBe(200);
      expect(r.body.length).toBe(0);
      expect(header(r, 'content-length')).toEqual(['100']);
    },
  },
  {
    name: 'HEAD of a body larger than the cap',
    req: () => ({ method: 'HEAD', url: `${base()}/bytes/${8 * 1024 * 1024}` }),
    verify: (r) => {
      expect(r.status).toBe(200);
      expect(header(r, 'content-length')).toEqual([String(8 * 1024 * 1024)]);
    },
  },
  {
    name: 'POST string body',
    req: () => ({
      method: 'POST',
      url: `${base()}/echo`,
      headers: [['Content-Type', 'text/plain; charset=utf-8']],
      body: 'héllo wörld',
    }),
    verify: (r) => {
      const e = echo(r);
      expect(e.method).toBe('POST');
      expect(Buffer.from(e.body, 'base64').toString('utf8')).toBe('héllo wörld');
      expect(e.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(e.headers['content-length']).toBe(String(Buffer.byteLength('héllo wörld')));
    },
  },
  {
    name: 'POST binary body, all byte values',
    req: () => ({ method: 'POST', url: `${base()}/echo`, body: Uint8Array.from({ length: 256 }, (_, i) => i) }),
    verify: (r) => expect([...Buffer.from(echo(r).body, 'base64')]).toEqual(Array.from({ length: 256 }, (_, i) => i)),
  },
  {
    name: 'PUT',
    req: () => ({
      method: 'PUT',
      url: `${base()}/echo`,
      body: '{"a":1}',
      headers: [['content-type', 'application/json']],
    }),
    verify: (r) => {
      expect(echo(r).method).toBe('PUT');
      expect(Buffer.from(echo(r).body, 'base64').toString()).toBe('{"a":1}');
    },
  },
  {
    name: 'PATCH',
    req: () => ({ method: 'PATCH', url: `${base()}/echo`, body: 'p' }),
    verify: (r) => expect(echo(r).method).toBe('PATCH'),
  },
  {
    name: 'DELETE',
    req: () => ({ method: 'DELETE', url: `${base()}/echo` }),
    verify: (r) => expect(echo(r).method).toBe('DELETE'),
  },
  {
    name: 'OPTIONS',
    req: () => ({ method: 'OPTIONS', url: `${base()}/echo` }),
    verify: (r) => expect(echo(r).method).toBe('OPTIONS'),
  },
  {
    name: 'custom, repeated and credential headers pass on the first hop',
    req: () => ({
      method: 'GET',
      url: `${base()}/echo`,
      headers: [
        ['X-Tenant', 'a b\tc'],
        ['Authorization', 'Bearer t0k3n'],
        ['Cookie', 'sid=1'],
        ['X-Multi', 'one'],
        ['X-Multi', 'two'],
        ['User-Agent', 'smartcage-test'],
      ],
    }),
    verify: (r) => {
      const h = echo(r).headers;
      expect(h['x-tenant']).toBe('a b\tc');
      expect(h.authorization).toBe('Bearer t0k3n');
      expect(h.cookie).toBe('sid=1');
      expect(h['x-multi']).toBe('one, two');
      expect(h['user-agent']).toBe('smartcage-test');
      expect(h['accept-encoding']).toBe('gzip, deflate, br');
    },
  },
  {
    name: 'gzip response decoded',
    req: () => ({ method: 'GET', url: `${base()}/enc/gzip?n=70000` }),
    verify: (r) => {
      expect(Buffer.from(r.body).equals(pattern(70000))).toBe(true);
      expect(header(r, 'content-encoding')).toEqual([]);
    },
  },
  {
    name: 'deflate (zlib) response decoded',
    req: () => ({ method: 'GET', url: `${base()}/enc/deflate?n=70000` }),
    verify: (r) => expect(Buffer.from(r.body).equals(pattern(70000))).toBe(true),
  },
  {
    name: 'raw deflate response decoded',
    req: () => ({ method: 'GET', url: `${base()}/enc/deflate-raw?n=70000` }),
    verify: (r) => expect(Buffer.from(r.body).equals(pattern(70000))).toBe(true),
  },
  {
    name: 'brotli response decoded',
    req: () => ({ method: 'GET', url: `${base()}/enc/br?n=70000` }),
    verify: (r) => expect(Buffer.from(r.body).equals(pattern(70000))).toBe(true),
  },
  {
    name: 'gzip, gzip decoded twice',
    req: () => ({ method: 'GET', url: `${base()}/enc/gzip-gzip?n=5000` }),
    verify: (r) => expect(Buffer.from(r.body).equals(pattern(5000))).toBe(true),
  },
  {
    name: 'unknown coding returned as sent, header kept',
    req: () => ({ method: 'GET', url: `${base()}/enc/zstd?n=100`, headers: [['accept-encoding', 'zstd']] }),
    verify: (r) => {
      expect(Buffer.from(r.body).equals(pattern(100))).toBe(true);
      expect(header(r, 'content-encoding')).toEqual(['zstd']);
    },
  },
  ...[201, 204, 400, 404, 418, 500, 503].map((status): AllowCase => ({
    name: `status ${status}`,
    req: () => ({ method: 'GET', url: `${base()}/status/${status}` }),
    verify: (r) => {
      expect(r.status).toBe(status);
      expect(text(r)).toBe(status === 204 ? '' : `status ${status}`);
    },
  })),
  {
    name: '304 is not followed',
    req: () => ({ method: 'GET', url: `${base()}/status/304` }),
    verify: (r) => expect(r.status).toBe(304),
  },
  {
    name: '302 without Location is returned',
    req: () => ({ method: 'GET', url: `${base()}/status/302` }),
    verify: (r) => {
      expect(r.status).toBe(302);
      expect(r.redirects).toBe(0);
    },
  },
  {
    name: 'several Set-Cookie headers kept apart',
    req: () => ({ method: 'GET', url: `${base()}/cookies` }),
    verify: (r) => expect(header(r, 'set-cookie')).toEqual(['a=1', 'b=2']),
  },
  {
    name: 'trailing-dot name',
    req: () => ({ method: 'GET', url: `http://public.test.:${net.port}/echo` }),
    verify: (r) => expect(r.status).toBe(200),
  },
  {
    name: 'https by name, certificate checked against the name',
    req: () => ({ method: 'GET', url: `https://public.test:${net.httpsPort}/echo` }),
    verify: (r) => {
      expect(echo(r).tls).toBe(true);
      expect(echo(r).headers.host).toBe(`public.test:${net.httpsPort}`);
    },
  },
  {
    name: 'https POST',
    req: () => ({ method: 'POST', url: `https://public.test:${net.httpsPort}/echo`, body: 'secure' }),
    verify: (r) => expect(Buffer.from(echo(r).body, 'base64').toString()).toBe('secure'),
  },
  {
    name: 'https gzip',
    req: () => ({ method: 'GET', url: `https://public.test:${net.httpsPort}/enc/gzip?n=20000` }),
    verify: (r) => expect(Buffer.from(r.body).equals(pattern(20000))).toBe(true),
  },
  {
    name: 'https by literal address (certificate has the IP)',
    req: () => ({ method: 'GET', url: `https://${PUBLIC_IP}:${net.httpsPort}/echo` }),
    verify: (r) => expect(echo(r).tls).toBe(true),
  },
  {
    name: 'raw server, connection: close',
    req: () => ({ method: 'GET', url: `http://public.test:${net.rawPort}/plain` }),
    verify: (r) => expect(text(r)).toBe('raw'),
  },
];

describe('allow corpus', () => {
  it('has at least 20 requests', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(20);
  });

  for (const c of CASES) {
    it(c.name, async () => {
      c.verify(await guard.fetch(c.req()));
    });
  }

  it('runs requests in parallel', async () => {
    const all = await Promise.all(
      Array.from({ length: 20 }, (_, i) => guard.fetch({ method: 'GET', url: `${base()}/bytes/${1000 + i}` })),
    );
    all.forEach((r, i) => expect(Buffer.from(r.body).equals(pattern(1000 + i))).toBe(true));
  });

  it('a certificate for another name is refused', async () => {
    const g = new EgressGuard(
      { allowedPorts: [net.httpsPort], treatAsPublic: [PUBLIC_IP] },
      mapResolver({ 'wrong.test': [PUBLIC_IP] }),
      { ca: CERT },
    );
    try {
      await expect(g.fetch({ method: 'GET', url: `https://wrong.test:${net.httpsPort}/echo` })).rejects.toMatchObject({
        code: 'E_HTTP_FAILED',
      });
    } finally {
      await g.close();
    }
  });

  it('without the test CA the certificate is not trusted', async () => {
    const g = new EgressGuard(
      { allowedPorts: [net.httpsPort], treatAsPublic: [PUBLIC_IP] },
      mapResolver({ 'public.test': [PUBLIC_IP] }),
    );
    try {
      await expect(g.fetch({ method: 'GET', url: `https://public.test:${net.httpsPort}/echo` })).rejects.toMatchObject({
        code: 'E_HTTP_FAILED',
      });
    } finally {
      await g.close();
    }
  });

  it('ignores environment proxies', async () => {
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, http_proxy: process.env.http_proxy };
    process.env.HTTP_PROXY = process.env.http_proxy = `http://127.0.0.1:${net.port}`;
    try {
      const r = await guard.fetch({ method: 'GET', url: `${base()}/echo` });
      expect(echo(r).url).toBe('/echo');
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    expect(net.canary.connections).toBe(0);
  });

  it('never touched the canary', () => {
    expect(net.canary.connections).toBe(0);
  });
});
