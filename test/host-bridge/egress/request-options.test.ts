/**
 * Request options of the guard that plugins use: method PURGE, a smaller response cap per request
 * (maxResponseBytes, never larger than the policy's), and the shape rules of `tls` (https only, a
 * certificate with its key); api-mtls.test.ts runs mTLS against a real server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressError, EgressGuard, type EgressRequest } from '../../../src/host-adapters/egress/index.js';
import { mapResolver, PUBLIC_IP, startTestNet, type TestNet } from '../../support/egress-servers.js';

let net: TestNet;
let guard: EgressGuard;
beforeAll(async () => {
  net = await startTestNet();
  guard = new EgressGuard(
    { allowedPorts: [net.port], treatAsPublic: [PUBLIC_IP], timeoutMs: 10_000, maxResponseBytes: 100_000 },
    mapResolver({ 'public.test': [PUBLIC_IP] }),
  );
});
afterAll(async () => {
  await guard.close();
  await net.close();
});

const url = (p: string): string => `http://public.test:${net.port}${p}`;
const code = (req: EgressRequest): Promise<string> =>
  guard.fetch(req).then(
    () => 'OK',
    (e: unknown) => (e instanceof EgressError ? e.code : `RAW ${String(e)}`),
  );

describe('guard request options', () => {
  it('sends PURGE; other unknown methods stay refused', async () => {
    const res = await guard.fetch({ method: 'PURGE', url: url('/echo') });
    expect((JSON.parse(Buffer.from(res.body).toString()) as { method: string }).method).toBe('PURGE');
    expect(await code({ method: 'BREW', url: url('/echo') })).toBe('E_BAD_HEADER');
  });

  // The archive plugins and get_file ask for their input cap; it is counted after decoding.
  const body = (maxResponseBytes: number | undefined, path: string): Promise<string> =>
    guard
      .fetch({ method: 'GET', url: url(path), ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }) })
      .then(
        (r) => `${r.body.length} bytes`,
        (e: unknown) => (e instanceof EgressError ? e.code : `RAW ${String(e)}`),
      );

  it('maxResponseBytes stops a body past the cap the request asks for, declared or streamed, plain or decoded', async () => {
    expect(await body(5000, '/bytes/5000')).toBe('5000 bytes');
    expect(await body(4999, '/bytes/5000')).toBe('E_HTTP_LIMIT');
    expect(await body(4999, '/bytes/5000?chunked=1')).toBe('E_HTTP_LIMIT');
    expect(await body(4999, '/enc/gzip?n=5000')).toBe('E_HTTP_LIMIT');
    expect(await body(0, '/bytes/1')).toBe('E_HTTP_LIMIT');
  });

  it("maxResponseBytes never raises the policy's cap", async () => {
    expect(await body(undefined, '/bytes/100000')).toBe('100000 bytes');
    expect(await body(10_000_000, '/bytes/100001')).toBe('E_HTTP_LIMIT');
    expect(await body(-1, '/bytes/100001')).toBe('E_HTTP_LIMIT');
    expect(await body(Number.NaN, '/bytes/100000')).toBe('100000 bytes');
  });

  it('tls needs https and a certificate with its key', async () => {
    const before = net.seen.length;
    expect(await code({ method: 'GET', url: url('/echo'), tls: { ca: 'x' } })).toBe('E_BAD_URL');
    expect(await code({ method: 'GET', url: `https://public.test:${net.port}/echo`, tls: { cert: 'x' } })).toBe(
      'E_BAD_URL',
    );
    expect(net.seen.length).toBe(before);
  });
});
