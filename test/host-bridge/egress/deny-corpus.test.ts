/**
 * NET-01..03, 07..09 and NET-04/05: URL forms and names that must never reach an internal
 * address. Every one is sent through the full `fetch` path against real listeners: a canary
 * listens on the test port on 127.0.0.1, ::1 and every other local address, and must count
 * zero connections; the guard's own connection counter must stay at zero too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressError, EgressGuard } from '../../../src/host-adapters/egress/index.js';
import {
  everythingHomeResolver,
  mapResolver,
  PUBLIC_IP,
  sequenceResolver,
  startTestNet,
  type TestNet,
} from '../../support/egress-servers.js';

let net: TestNet;
beforeAll(async () => {
  net = await startTestNet();
});
afterAll(async () => {
  await net.close();
});

/** `P` is replaced by the canary port. `name: true` marks forms that only the connector can refuse. */
interface DenyCase {
  url: string;
  note: string;
  name?: boolean;
}

const CORPUS: DenyCase[] = [
  // NET-01 literal internal addresses
  { url: 'http://127.0.0.1:P/', note: 'loopback' },
  { url: 'http://127.0.0.1:P/containers/json', note: 'docker API path' },
  { url: 'http://169.254.169.254/latest/meta-data/', note: 'cloud metadata' },
  { url: 'http://169.254.169.254:P/', note: 'metadata, test port' },
  { url: 'http://[::1]:P/', note: 'IPv6 loopback' },
  { url: 'http://[::1]/', note: 'IPv6 loopback, default port' },
  { url: 'http://0.0.0.0:P/', note: 'unspecified' },
  { url: 'http://10.0.0.5/', note: 'RFC 1918 10/8' },
  { url: 'http://172.16.0.1/', note: 'RFC 1918 172.16/12' },
  { url: 'http://172.31.255.254/', note: 'RFC 1918 172.16/12 top' },
  { url: 'http://192.168.1.1/', note: 'RFC 1918 192.168/16' },
  { url: 'http://100.64.0.1/', note: 'CGNAT' },
  { url: 'http://100.127.255.255/', note: 'CGNAT top' },
  { url: 'http://[fd00::1]/', note: 'ULA' },
  { url: 'http://[fd00::2]:P/', note: "this machine's ULA" },
  { url: 'http://192.0.2.2:P/', note: "this machine's TEST-NET-1 address" },
  { url: 'http://255.255.255.255/', note: 'broadcast' },
  { url: 'http://127.0.0.2:P/', note: '127/8 without treatAsPublic' },
  { url: 'http://127.255.255.254:P/', note: '127/8 top' },
  { url: 'http://224.0.0.1/', note: 'multicast' },
  { url: 'http://240.0.0.1/', note: 'reserved' },
  { url: 'http://198.18.0.1/', note: 'benchmarking' },
  { url: 'http://198.51.100.7/', note: 'TEST-NET-2' },
  { url: 'http://203.0.113.9/', note: 'TEST-NET-3' },
  { url: 'http://192.0.0.170/', note: 'IETF protocol assignments' },
  { url: 'http://[fe80::1]/', note: 'IPv6 link-local' },
  { url: 'http://[::]:P/', note: 'IPv6 unspecified' },
  { url: 'http://[fc00::1]/', note: 'ULA fc00' },
  { url: 'http://[fec0::1]/', note: 'site-local' },
  { url: 'http://[ff02::1]/', note: 'IPv6 multicast' },
  { url: 'http://[100::1]/', note: 'discard prefix' },
  { url: 'http://[2001:db8::1]/', note: 'IPv6 documentation' },
  { url: 'http://[2001::1]/', note: 'Teredo' },
  { url: 'http://[64:ff9b:1::a00:1]/', note: 'local-use NAT64' },
  // NET-02 encoded IPv4
  { url: 'http://2130706433:P/', note: 'dword' },
  { url: 'http://0x7f000001:P/', note: 'hex dword' },
  { url: 'http://0177.0.0.1:P/', note: 'octal first part' },
  { url: 'http://127.1:P/', note: 'short form' },
  { url: 'http://127.0.1:P/', note: 'three-part form' },
  { url: 'http://127.0.0.1.:P/', note: 'trailing dot' },
  { url: 'http://\uff11\uff12\uff17.\uff10.\uff10.\uff11:P/', note: 'full-width digits' },
  { url: 'http://127\u30020\u30020\u30021:P/', note: 'ideographic full stops' },
  { url: 'http://0:P/', note: 'single zero' },
  { url: 'http://0x7f.0x0.0x0.0x1:P/', note: 'hex parts' },
  { url: 'http://0177.0000.0000.0001:P/', note: 'octal parts' },
  { url: 'http://017700000001:P/', note: 'octal dword' },
  { url: 'http://0x7F.1:P/', note: 'hex short form' },
  { url: 'http://3232235777/', note: 'dword 192.168.1.1' },
  { url: 'http://0xa9fea9fe/', note: 'hex dword metadata' },
  { url: 'http://%31%32%37.0.0.1:P/', note: 'percent-encoded host' },
  { url: 'http://0x7f000001.:P/', note: 'hex dword, trailing dot' },
  { url: 'http://\uff10\uff58\uff17\uff46\uff10\uff10\uff10\uff10\uff10\uff11:P/', note: 'full-width hex dword' },
  { url: 'http://localhost:P/', note: 'localhost' },
  { url: 'http://LOCALHOST:P/', note: 'localhost, upper case' },
  { url: 'http://localhost.:P/', note: 'localhost, trailing dot' },
  { url: 'http://foo.localhost:P/', note: 'subdomain of localhost' },
  { url: 'http://127.0.0.1:0080/', note: 'port with leading zeros' },
  { url: 'https://127.0.0.1:P/', note: 'https loopback' },
  // NET-03 IPv6 wrappers
  { url: 'http://[::ffff:127.0.0.1]:P/', note: 'IPv4-mapped dotted' },
  { url: 'http://[::ffff:7f00:1]:P/', note: 'IPv4-mapped hex' },
  { url: 'http://[0:0:0:0:0:ffff:127.0.0.1]:P/', note: 'IPv4-mapped, long form' },
  { url: 'http://[::ffff:a9fe:a9fe]/', note: 'IPv4-mapped metadata' },
  { url: 'http://[::ffff:8.8.8.8]/', note: 'IPv4-mapped, even of a public address' },
  { url: 'http://[::127.0.0.1]:P/', note: 'IPv4-compatible' },
  { url: 'http://[64:ff9b::a9fe:a9fe]/', note: 'NAT64 of metadata' },
  { url: 'http://[64:ff9b::127.0.0.1]:P/', note: 'NAT64 of loopback' },
  { url: 'http://[2002:a9fe:a9fe::]/', note: '6to4 of metadata' },
  { url: 'http://[2002:7f00:1::1]:P/', note: '6to4 of loopback' },
  { url: 'http://[fe80::1%25eth0]/', note: 'zone id, encoded' },
  { url: 'http://[fe80::1%eth0]/', note: 'zone id, raw' },
  { url: 'http://[0000::1]:P/', note: 'loopback, leading zeros' },
  { url: 'https://[::1]:P/', note: 'https IPv6 loopback' },
  // NET-07 schemes
  { url: 'file:///etc/passwd', note: 'file' },
  { url: 'data:text/plain,x', note: 'data' },
  { url: 'ftp://example.com/', note: 'ftp' },
  { url: 'gopher://127.0.0.1:P/_x', note: 'gopher' },
  { url: 'ws://127.0.0.1:P/', note: 'ws' },
  { url: 'wss://example.com/', note: 'wss' },
  { url: 'blob:http://example.com/0-1', note: 'blob' },
  { url: 'http+unix://%2Fvar%2Frun%2Fdocker.sock/containers/json', note: 'unix socket URL' },
  { url: 'unix:/var/run/docker.sock', note: 'unix scheme' },
  { url: 'javascript:alert(1)', note: 'javascript' },
  { url: 'dict://127.0.0.1:P/', note: 'dict' },
  // NET-08 ports
  { url: 'http://mail.example:25/', note: 'SMTP' },
  { url: 'http://public.test:6379/', note: 'Redis' },
  { url: 'http://public.test:11211/', note: 'memcached' },
  { url: 'http://public.test:0/', note: 'port 0' },
  { url: 'http://public.test:22/', note: 'SSH' },
  { url: 'http://public.test:65536/', note: 'port out of range' },
  { url: 'https://public.test:8443/', note: 'https on a port not in the list' },
  { url: 'http://public.test:8080/', note: 'alternative HTTP port' },
  // NET-09 parser confusion
  { url: 'http://allowed.example@127.0.0.1:P/', note: 'userinfo then loopback' },
  { url: 'http://127.0.0.1:P#@allowed.example/', note: 'fragment-hidden host' },
  { url: 'http://allowed.example\\@127.0.0.1:P/', note: 'backslash before @' },
  { url: 'http://user:pass@public.test/', note: 'credentials' },
  { url: 'http://@127.0.0.1:P/', note: 'empty userinfo' },
  { url: 'http://@public.test/', note: 'empty userinfo, public name' },
  { url: 'http://127.0.0.1:P\\@allowed.example/', note: 'backslash in authority' },
  { url: 'http://127.0.0.1\t:P/', note: 'tab' },
  { url: 'http://127.0.0\n.1:P/', note: 'newline' },
  { url: 'http://allowed.example\r\n@127.0.0.1:P/', note: 'CRLF' },
  { url: ' http://127.0.0.1:P/', note: 'leading space' },
  { url: 'http:\\\\127.0.0.1:P\\', note: 'backslashes as slashes' },
  { url: 'http:/127.0.0.1:P/', note: 'one slash' },
  { url: 'http:127.0.0.1:P/', note: 'no slashes' },
  { url: 'HTTP://127.0.0.1:P/', note: 'upper-case scheme' },
  { url: 'http://127.0.0.1:P%2F@allowed.example/', note: 'encoded slash before @' },
  { url: 'http://allowed.example%00@127.0.0.1:P/', note: 'encoded NUL in userinfo' },
  { url: 'http://example.com%23@127.0.0.1:P/', note: 'encoded # in userinfo' },
  { url: 'http://127.0.0.1:P/\u0000', note: 'NUL' },
  { url: 'http://127.0.0.1:P/\u2028', note: 'line separator' },
  { url: '', note: 'empty' },
  { url: 'http://', note: 'no host' },
  { url: 'not a url', note: 'not a URL' },
  { url: '//127.0.0.1:P/', note: 'scheme-relative' },
  { url: 'http://[::1]%2F:P/', note: 'junk after IPv6 literal' },
  // NET-04 names that resolve inside (the test resolver points every name home)
  { url: 'http://internal.test:P/', note: 'name to loopback', name: true },
  { url: 'http://127.0.0.1.nip.io:P/', note: 'nip.io style', name: true },
  { url: 'http://localtest.me:P/', note: 'localtest.me', name: true },
  { url: 'http://public.test:P/', note: 'any name, hostile DNS', name: true },
  { url: 'https://public.test:P/', note: 'https name, hostile DNS', name: true },
  { url: 'http://xn--e1afmkfd.test:P/', note: 'punycode name', name: true },
  { url: 'http://\u043f\u0440\u0438\u043c\u0435\u0440.test:P/', note: 'IDN name', name: true },
];

describe('deny corpus (NET-01..04, 07..09)', () => {
  it('has at least 70 forms', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(70);
  });

  it('refuses every form through fetch and the canary sees nothing', async () => {
    const guard = new EgressGuard({ allowedPorts: [80, 443, net.port] }, everythingHomeResolver());
    const outcomes: string[] = [];
    try {
      for (const c of CORPUS) {
        const url = c.url.replace(/:P\b/g, `:${net.port}`);
        let code = 'ACCEPTED';
        try {
          await guard.fetch({ method: 'GET', url, timeoutMs: 2000 });
        } catch (e) {
          code = e instanceof EgressError ? e.code : `NOT-EGRESS-ERROR ${String(e)}`;
          if (e instanceof EgressError) {
            // Tenant-safe message: never the address a name resolved to.
            if (c.name && !url.includes('127.0.0.1')) expect(e.message).not.toMatch(/127\.0\.0\.1|::1/);
          }
        }
        outcomes.push(`${code} ${JSON.stringify(url)} (${c.note})`);
      }
    } finally {
      await guard.close();
    }
    const bad = outcomes.filter((o) => !o.startsWith('E_SSRF_DENIED') && !o.startsWith('E_BAD_URL'));
    expect(bad).toEqual([]);
    expect(net.canary.connections).toBe(0);
    expect(net.canary.bytes).toBe(0);
    expect(guard.stats.connections).toBe(0);
    expect(guard.stats.denied).toBeGreaterThanOrEqual(CORPUS.filter((c) => c.name).length);
    expect(net.seen).toEqual([]);
  });

  it('refuses every non-name form synchronously in check()', () => {
    const guard = new EgressGuard({ allowedPorts: [80, 443, net.port] }, everythingHomeResolver());
    for (const c of CORPUS.filter((x) => !x.name)) {
      const url = c.url.replace(/:P\b/g, `:${net.port}`);
      let thrown: unknown;
      try {
        guard.check(url);
      } catch (e) {
        thrown = e;
      }
      expect(thrown, `${JSON.stringify(url)} (${c.note})`).toBeInstanceOf(EgressError);
      expect(['E_SSRF_DENIED', 'E_BAD_URL']).toContain((thrown as EgressError).code);
    }
    void guard.close();
  });
});

describe('names resolving inside, DNS rebinding (NET-04, NET-05)', () => {
  const policy = () => ({ allowedPorts: [net.port], treatAsPublic: [PUBLIC_IP], timeoutMs: 3000 });

  async function attempt(guard: EgressGuard, url: string): Promise<string> {
    try {
      const r = await guard.fetch({ method: 'GET', url });
      return `OK ${r.status}`;
    } catch (e) {
      return e instanceof EgressError ? e.code : `RAW ${String(e)}`;
    }
  }

  it('denies names mapped to loopback, to a public+private mix (either order), to junk', async () => {
    const resolver = mapResolver({
      'internal.test': ['127.0.0.1'],
      'mixed.test': [PUBLIC_IP, '127.0.0.1'],
      'mixed2.test': ['127.0.0.1', PUBLIC_IP],
      'mixed6.test': [PUBLIC_IP, '::1'],
      'mapped.test': ['::ffff:127.0.0.1'],
      'meta.test': ['169.254.169.254'],
      'junk.test': ['not-an-ip'],
      'zone.test': ['fe80::1%lo'],
    });
    const guard = new EgressGuard(policy(), resolver);
    try {
      for (const name of ['internal', 'mixed', 'mixed2', 'mixed6', 'mapped', 'meta', 'junk', 'zone']) {
        const out = await attempt(guard, `http://${name}.test:${net.port}/echo`);
        expect(out, name).toBe('E_SSRF_DENIED');
      }
    } finally {
      await guard.close();
    }
    expect(guard.stats.connections).toBe(0);
    expect(net.canary.connections).toBe(0);
    expect(net.seen.filter((s) => s.host.includes('.test'))).toEqual([]);
  });

  it('a name that does not resolve fails with E_HTTP_FAILED and no address in the message', async () => {
    const guard = new EgressGuard(policy(), mapResolver({}));
    try {
      await expect(guard.fetch({ method: 'GET', url: `http://nx.test:${net.port}/` })).rejects.toMatchObject({
        code: 'E_HTTP_FAILED',
      });
    } finally {
      await guard.close();
    }
  });

  it('rebinding: public then loopback, one lookup per connection, the validated address is the one connected', async () => {
    // Odd lookups answer public, even ones loopback (TTL 0). /close forces a new connection each time.
    const seq: string[][] = [];
    for (let i = 0; i < 12; i++) seq.push(i % 2 === 0 ? [PUBLIC_IP] : ['127.0.0.1']);
    const resolver = sequenceResolver(seq);
    const guard = new EgressGuard(policy(), resolver);
    const before = net.seen.length;
    const outcomes: string[] = [];
    try {
      for (let i = 0; i < 8; i++) outcomes.push(await attempt(guard, `http://rebind.test:${net.port}/close`));
    } finally {
      await guard.close();
    }
    expect(outcomes.every((o) => o === 'OK 200' || o === 'E_SSRF_DENIED')).toBe(true);
    expect(outcomes.filter((o) => o === 'OK 200').length).toBe(net.seen.length - before);
    expect(outcomes).toContain('E_SSRF_DENIED');
    // One lookup per new connection: no separate "check" lookup that could disagree with the connect.
    expect(resolver.calls.length).toBe(outcomes.length);
    expect(net.canary.connections).toBe(0);
  });

  it('rebinding: first answer public, every later one loopback; the next connection is denied', async () => {
    const resolver = sequenceResolver([[PUBLIC_IP], ['127.0.0.1']]);
    const guard = new EgressGuard(policy(), resolver);
    try {
      expect(await attempt(guard, `http://rebind2.test:${net.port}/close`)).toBe('OK 200');
      expect(await attempt(guard, `http://rebind2.test:${net.port}/echo`)).toBe('E_SSRF_DENIED');
      expect(await attempt(guard, `http://rebind2.test:${net.port}/echo`)).toBe('E_SSRF_DENIED');
    } finally {
      await guard.close();
    }
    expect(resolver.calls.length).toBe(3);
    expect(guard.stats.connections).toBe(1);
    expect(net.canary.connections).toBe(0);
  });
});
