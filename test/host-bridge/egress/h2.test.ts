/**
 * The egress guard speaks HTTP/1.1 only, also to a server that offers HTTP/2 in ALPN. The header
 * cap is llhttp's `maxHeaderSize`, which undici's HTTP/2 client does not apply: newer undici
 * majors negotiate HTTP/2 by default, and a 16 KB response header then passed a 4 KB cap. The
 * guard passes `allowH2: false`; this test holds it there whatever undici's default becomes.
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressError, EgressGuard } from '../../../src/host-adapters/egress/index.js';
import { CERT, mapResolver, PUBLIC_IP } from '../../support/egress-servers.js';

const KEY = readFileSync(new URL('../../fixtures/tls/test-key.pem', import.meta.url));
let server: http2.Http2SecureServer;
let port = 0;
const versions: string[] = [];

beforeAll(async () => {
  server = http2.createSecureServer({ key: KEY, cert: CERT, allowHTTP1: true }, (req, res) => {
    versions.push(req.httpVersion);
    if (req.url === '/big-header') res.setHeader('x-big', 'a'.repeat(16 * 1024));
    res.end(`hello over ${req.httpVersion}`);
  });
  await new Promise<void>((r) => server.listen(0, PUBLIC_IP, r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function guard(): EgressGuard {
  return new EgressGuard(
    { allowedPorts: [port], treatAsPublic: [PUBLIC_IP], maxHeaderBytes: 4096, timeoutMs: 5000 },
    mapResolver({ 'public.test': [PUBLIC_IP] }),
    { ca: CERT },
  );
}

describe('the egress guard never negotiates HTTP/2', () => {
  it('talks HTTP/1.1 to a server that offers h2', async () => {
    const g = guard();
    try {
      const r = await g.fetch({ method: 'GET', url: `https://public.test:${port}/` });
      expect(Buffer.from(r.body).toString()).toBe('hello over 1.1');
      expect(versions.at(-1)).toBe('1.1');
    } finally {
      await g.close();
    }
  });

  it('so a 16 KB response header still hits the 4 KB header cap', async () => {
    const g = guard();
    try {
      const code = await g.fetch({ method: 'GET', url: `https://public.test:${port}/big-header` }).then(
        () => 'OK',
        (e: unknown) => (e instanceof EgressError ? e.code : `RAW ${String(e)}`),
      );
      expect(code).toBe('E_HTTP_LIMIT');
    } finally {
      await g.close();
    }
  });
});
