/**
 * NET-10 (request header injection) and NET-11 (response bombs): header rules, body caps
 * counted after decompression, header-size cap, deadline, caller abort.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressError, EgressGuard, type EgressRequest } from '../../../src/host-adapters/egress/index.js';
import { mapResolver, PUBLIC_IP, startTestNet, type TestNet } from '../../support/egress-servers.js';

let net: TestNet;
let guard: EgressGuard;
const MiB = 1024 * 1024;
beforeAll(async () => {
  net = await startTestNet();
  guard = new EgressGuard(
    { allowedPorts: [net.port, net.rawPort], treatAsPublic: [PUBLIC_IP], timeoutMs: 10_000 },
    mapResolver({ 'public.test': [PUBLIC_IP] }),
  );
});
afterAll(async () => {
  await guard.close();
  await net.close();
});

const base = (): string => `http://public.test:${net.port}`;

async function code(g: EgressGuard, req: EgressRequest): Promise<string> {
  try {
    await g.fetch(req);
    return 'OK';
  } catch (e) {
    return e instanceof EgressError ? e.code : `RAW ${String(e)}`;
  }
}

describe('request header injection (NET-10)', () => {
  const BAD: [string, string][] = [
    ['X', 'a\r\nHost: internal'],
    ['X', 'a\nb'],
    ['X', 'a\rb'],
    ['X', 'a\u0000b'],
    ['X', 'a\u007fb'],
    ['X', 'caf\u0100'],
    ['Host', '169.254.169.254'],
    ['host', 'public.test'],
    ['Transfer-Encoding', 'chunked'],
    ['Content-Length', '0'],
    ['Connection', 'close'],
    ['Upgrade', 'websocket'],
    ['Proxy-Authorization', 'Basic eDp5'],
    ['Proxy-Connection', 'keep-alive'],
    ['TE', 'trailers'],
    ['Keep-Alive', 'timeout=5'],
    ['Expect', '100-continue'],
    ['Trailer', 'x'],
    ['X Y', '1'],
    ['X:Y', '1'],
    ['', 'v'],
    ['X\r\nInjected', 'v'],
    ['(x)', '1'],
    ['x\u00e9', '1'],
  ];

  for (const [name, value] of BAD) {
    it(`refuses ${JSON.stringify(name)}: ${JSON.stringify(value)}`, async () => {
      const before = net.seen.length;
      expect(await code(guard, { method: 'GET', url: `${base()}/echo`, headers: [[name, value]] })).toBe(
        'E_BAD_HEADER',
      );
      expect(net.seen.length).toBe(before);
    });
  }

  it('refuses bad methods', async () => {
    for (const method of ['CONNECT', 'TRACE', 'TRACK', 'GET /x HTTP/1.1', 'GET\r\n', '', 'PROPFIND']) {
      expect(await code(guard, { method, url: `${base()}/echo` }), method).toBe('E_BAD_HEADER');
    }
  });

  it('refuses a body on GET, and non-list headers', async () => {
    expect(await code(guard, { method: 'GET', url: `${base()}/echo`, body: 'x' })).toBe('E_BAD_HEADER');
    expect(await code(guard, { method: 'GET', url: `${base()}/echo`, headers: { Host: 'x' } as never })).toBe(
      'E_BAD_HEADER',
    );
    expect(await code(guard, { method: 'GET', url: `${base()}/echo`, headers: [['a']] as never })).toBe('E_BAD_HEADER');
  });

  it('caps request header count and bytes', async () => {
    const many = Array.from({ length: 101 }, (_, i): [string, string] => [`x-${i}`, 'v']);
    expect(await code(guard, { method: 'GET', url: `${base()}/echo`, headers: many })).toBe('E_BAD_HEADER');
    expect(await code(guard, { method: 'GET', url: `${base()}/echo`, headers: [['x-big', 'a'.repeat(70_000)]] })).toBe(
      'E_BAD_HEADER',
    );
  });

  it('caps the request body', async () => {
    const g = new EgressGuard(
      { allowedPorts: [net.port], treatAsPublic: [PUBLIC_IP], maxRequestBytes: 1000 },
      mapResolver({ 'public.test': [PUBLIC_IP] }),
    );
    try {
      expect(await code(g, { method: 'POST', url: `${base()}/echo`, body: 'x'.repeat(1001) })).toBe('E_HTTP_LIMIT');
      expect(await code(g, { method: 'POST', url: `${base()}/echo`, body: 'x'.repeat(1000) })).toBe('OK');
    } finally {
      await g.close();
    }
  });
});

describe('response limits (NET-11)', () => {
  it('gzip bomb (512 MiB) stops at the cap with bounded memory', async () => {
    // Warm up: build the bomb on the server side before measuring.
    await code(guard, { method: 'GET', url: `${base()}/bomb`, timeoutMs: 10_000 });
    global.gc?.();
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const err = await guard.fetch({ method: 'GET', url: `${base()}/bomb` }).catch((e: unknown) => e);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(err).toBeInstanceOf(EgressError);
    expect((err as EgressError).code).toBe('E_HTTP_LIMIT');
    expect((err as EgressError).message).toContain('/bomb');
    // 10 MiB cap: growth stays far below the 512 MiB the bomb inflates to.
    expect(peak - rss0).toBeLessThan(96 * MiB);
  });

  it('nested gzip, gzip bomb stops at the cap', async () => {
    const g = new EgressGuard(
      { allowedPorts: [net.port], treatAsPublic: [PUBLIC_IP], maxResponseBytes: MiB },
      mapResolver({ 'public.test': [PUBLIC_IP] }),
    );
    try {
      expect(await code(g, { method: 'GET', url: `${base()}/bomb?kind=gzip-gzip` })).toBe('E_HTTP_LIMIT');
    } finally {
      await g.close();
    }
  });

  it('brotli bomb stops at the cap', async () => {
    const g = new EgressGuard(
      { allowedPorts: [net.port], treatAsPublic: [PUBLIC_IP], maxResponseBytes: MiB },
      mapResolver({ 'public.test': [PUBLIC_IP] }),
    );
    try {
      expect(await code(g, { method: 'GET', url: `${base()}/bomb?kind=br` })).toBe('E_HTTP_LIMIT');
    } finally {
      await g.close();
    }
  });

  it('oversize body: declared length and chunked', async () => {
    const g = new EgressGuard(
      { allowedPorts: [net.port], treatAsPublic: [PUBLIC_IP], maxResponseBytes: MiB },
      mapResolver({ 'public.test': [PUBLIC_IP] }),
    );
    try {
      expect(await code(g, { method: 'GET', url: `${base()}/bytes/${20 * MiB}` })).toBe('E_HTTP_LIMIT');
      expect(await code(g, { method: 'GET', url: `${base()}/bytes/${4 * MiB}?chunked=1` })).toBe('E_HTTP_LIMIT');
      expect(await code(g, { method: 'GET', url: `${base()}/bytes/${MiB + 1}?chunked=1` })).toBe('E_HTTP_LIMIT');
      expect(await code(g, { method: 'GET', url: `${base()}/bytes/${MiB}?chunked=1` })).toBe('OK');
    } finally {
      await g.close();
    }
  });

  it('corrupt compressed bodies fail cleanly; three nested codings are refused', async () => {
    for (const enc of ['gzip', 'deflate', 'br']) {
      expect(await code(guard, { method: 'GET', url: `${base()}/enc/bad-${enc}` }), enc).toBe('E_HTTP_FAILED');
    }
    expect(await code(guard, { method: 'GET', url: `${base()}/enc/gzip-x3?n=100` })).toBe('E_HTTP_LIMIT');
  });

  // The drip never ends and never idles, so only the deadline ends it: the request's 300 ms, since the
  // shared guard's own 10 s would outlast the test's timeout.
  it('slow drip hits the overall deadline', async () => {
    const err = await guard.fetch({ method: 'GET', url: `${base()}/drip`, timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EgressError);
    expect((err as EgressError).code).toBe('E_HTTP_TIMEOUT');
  }, 5_000);

  // The test's timeout is the bound: a request left to its own 60 s would outlast it.
  it('a server that never answers hits the deadline (policy timeout)', async () => {
    const g = new EgressGuard(
      { allowedPorts: [net.port], treatAsPublic: [PUBLIC_IP], timeoutMs: 300 },
      mapResolver({ 'public.test': [PUBLIC_IP] }),
    );
    try {
      expect(await code(g, { method: 'GET', url: `${base()}/hang` })).toBe('E_HTTP_TIMEOUT');
      // A longer per-request timeout does not lift the policy's.
      expect(await code(g, { method: 'GET', url: `${base()}/hang`, timeoutMs: 60_000 })).toBe('E_HTTP_TIMEOUT');
    } finally {
      await g.close();
    }
  }, 5_000);

  it('the deadline covers redirects and a slow resolver', async () => {
    const slow = { lookup: () => new Promise<never>(() => undefined) };
    const g = new EgressGuard({ allowedPorts: [net.port], treatAsPublic: [PUBLIC_IP], timeoutMs: 300 }, slow);
    try {
      // the lookup never settles: the deadline's code, within the test's timeout, is what ends it
      expect(await code(g, { method: 'GET', url: `${base()}/echo` })).toBe('E_HTTP_TIMEOUT');
    } finally {
      await g.close();
    }
  }, 5_000);

  it("honours the caller's signal", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    expect(await code(guard, { method: 'GET', url: `${base()}/drip`, signal: ac.signal })).toBe('E_HTTP_FAILED');
    expect(await code(guard, { method: 'GET', url: `${base()}/echo`, signal: AbortSignal.abort() })).toBe(
      'E_HTTP_FAILED',
    );
  });

  it('100 000 response headers hit the header cap', async () => {
    expect(await code(guard, { method: 'GET', url: `http://public.test:${net.rawPort}/many-headers` })).toBe(
      'E_HTTP_LIMIT',
    );
  });

  it('one 200 kB header hits the header cap', async () => {
    expect(await code(guard, { method: 'GET', url: `http://public.test:${net.rawPort}/huge-header` })).toBe(
      'E_HTTP_LIMIT',
    );
  });

  it('never touched the canary', () => {
    expect(net.canary.connections).toBe(0);
  });
});
