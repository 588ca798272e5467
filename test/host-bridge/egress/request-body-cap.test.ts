/**
 * EgressRequest.maxResponseBytes: a request may ask for a smaller body cap than the policy's
 * (the archive plugins ask for their input cap), counted after decoding, never a larger one.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EgressGuard } from '../../../src/host-bridge/egress/index.js';
import { mapResolver, PUBLIC_IP, startTestNet, type TestNet } from '../../support/egress-servers.js';

let net: TestNet;
let guard: EgressGuard;
beforeAll(async () => {
  net = await startTestNet();
  guard = new EgressGuard({ allowedPorts: [net.port], treatAsPublic: [PUBLIC_IP], timeoutMs: 10_000, maxResponseBytes: 100_000 }, mapResolver({ 'public.test': [PUBLIC_IP] }));
});
afterAll(async () => {
  await guard.close();
  await net.close();
});

const url = (path: string): string => `http://public.test:${net.port}${path}`;
const outcome = (maxResponseBytes: number | undefined, path: string): Promise<string> =>
  guard.fetch({ method: 'GET', url: url(path), ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }) }).then(
    (r) => `${r.body.length} bytes`,
    (e: { code?: string }) => e.code ?? 'error',
  );

it('stops a body past the cap the request asks for, declared or streamed, plain or decoded', async () => {
  expect(await outcome(5000, '/bytes/5000')).toBe('5000 bytes');
  expect(await outcome(4999, '/bytes/5000')).toBe('E_HTTP_LIMIT');
  expect(await outcome(4999, '/bytes/5000?chunked=1')).toBe('E_HTTP_LIMIT');
  expect(await outcome(4999, '/enc/gzip?n=5000')).toBe('E_HTTP_LIMIT');
  expect(await outcome(0, '/bytes/1')).toBe('E_HTTP_LIMIT');
});

it('never raises the policy\'s cap', async () => {
  expect(await outcome(undefined, '/bytes/100000')).toBe('100000 bytes');
  expect(await outcome(10_000_000, '/bytes/100001')).toBe('E_HTTP_LIMIT');
  expect(await outcome(-1, '/bytes/100001')).toBe('E_HTTP_LIMIT');
  expect(await outcome(Number.NaN, '/bytes/100000')).toBe('100000 bytes');
});
