/**
 * The post-connect peer check, on real sockets: the connector pins an address and refuses a
 * socket whose peer is anything else (defence in depth behind pinning). Pinning itself cannot
 * be made to fail without patching node:net, so the check is exercised here directly with the
 * `remoteAddress` of real connections.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peerAllowed } from '../../../src/host-adapters/egress/connector.js';

const servers: net.Server[] = [];
async function peerOf(host: string): Promise<string | undefined> {
  const server = net.createServer((s) => s.end());
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, host, r));
  const port = (server.address() as net.AddressInfo).port;
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host, port }, () => {
      const addr = sock.remoteAddress;
      sock.destroy();
      resolve(addr);
    });
    sock.on('error', reject);
  });
}

let v4Loop: string | undefined;
let v4Public: string | undefined;
let v6Loop: string | undefined;
beforeAll(async () => {
  v4Loop = await peerOf('127.0.0.1');
  v4Public = await peerOf('127.0.0.2');
  v6Loop = await peerOf('::1').catch(() => undefined);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

describe('peerAllowed', () => {
  const policy = { treatAsPublic: ['127.0.0.2'] };

  it('accepts the pinned, public peer', () => {
    expect(v4Public).toBe('127.0.0.2');
    expect(peerAllowed(v4Public, '127.0.0.2', policy)).toBe(true);
    expect(peerAllowed(v4Public, '::ffff:127.0.0.2', policy)).toBe(true);
  });

  it('refuses a peer that differs from the pinned address', () => {
    // The pinned (validated) address was public, the socket ended up on loopback.
    expect(peerAllowed(v4Loop, '127.0.0.2', policy)).toBe(false);
    if (v6Loop) expect(peerAllowed(v6Loop, '127.0.0.2', policy)).toBe(false);
  });

  it('refuses a non-public peer even when it equals the pin', () => {
    expect(peerAllowed(v4Loop, '127.0.0.1', policy)).toBe(false);
    if (v6Loop) expect(peerAllowed(v6Loop, '::1', policy)).toBe(false);
  });

  it('refuses an unknown peer', () => {
    expect(peerAllowed(undefined, '127.0.0.2', policy)).toBe(false);
    expect(peerAllowed('', '127.0.0.2', policy)).toBe(false);
  });
});
