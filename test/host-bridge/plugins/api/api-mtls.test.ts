/**
 * {api} mTLS against a real HTTPS server on 127.0.0.2 that requires a client certificate issued
 * by a CA made for this run (test/support/test-pki.ts), reached only through a test egress
 * policy. The guard trusts no CA of its own here: the server is trusted only through cainfo.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressGuard } from '../../../../src/host-adapters/egress/index.js';
import type { SecretRecord, HostResolver } from '../../../../src/host-api/host.js';
import type { Engine } from '../../../../src/index.js';
import { mapResolver, PUBLIC_IP } from '../../../support/egress-servers.js';
import { templateError, testEngine } from '../../../support/engine.js';
import { makeTestPki } from '../../../support/test-pki.js';

const pki = makeTestPki(['mtls.test', PUBLIC_IP]);
const HOSTS = ['mtls.test'];
const SECRETS: Record<string, SecretRecord> = {
  CERT: { value: pki.client.cert, hosts: HOSTS },
  KEY: { value: pki.client.key, hosts: HOSTS },
  CA: { value: pki.ca.cert, hosts: HOSTS },
  ROGUE_CERT: { value: pki.rogueClient.cert, hosts: HOSTS },
  ROGUE_KEY: { value: pki.rogueClient.key, hosts: HOSTS },
  WRONG_CA: { value: pki.rogueCa.cert, hosts: HOSTS },
  KEY_ELSEWHERE: { value: pki.client.key, hosts: ['other.test'] },
  CERT_PLAIN: { value: pki.client.cert, hosts: ['http://mtls.test'] },
  KEY_PLAIN: { value: pki.client.key, hosts: ['http://mtls.test'] },
  NOT_PEM: { value: 'not-a-certificate-value-31337', hosts: HOSTS },
};

/** Who connected: the CN of each client certificate the server accepted (null: none). */
const peers: (string | null)[] = [];
let server: https.Server;
let port = 0;
let guard: EgressGuard;

beforeAll(async () => {
  server = https.createServer(
    { cert: pki.server.cert, key: pki.server.key, ca: pki.ca.cert, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      const cert = (req.socket as TLSSocket).getPeerCertificate();
      peers.push(typeof cert.subject?.CN === 'string' ? cert.subject.CN : null);
      if (req.url === '/away') {
        res.statusCode = 302;
        res.setHeader('location', `https://other.test:${port}/hello`);
        res.end();
        return;
      }
      res.setHeader('content-type', 'text/plain');
      res.end(`hello ${cert.subject?.CN ?? 'nobody'} ${req.method}`);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, PUBLIC_IP, resolve));
  port = (server.address() as AddressInfo).port;
  guard = new EgressGuard(
    { allowedPorts: [port], treatAsPublic: [PUBLIC_IP], timeoutMs: 5_000 },
    mapResolver({ 'mtls.test': [PUBLIC_IP], 'other.test': [PUBLIC_IP] }),
  );
});
afterAll(async () => {
  await guard.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const host: HostResolver = ({ tenant }) => ({
  http: { fetch: (req) => guard.fetch(req) },
  secrets: {
    get: async (name) =>
      tenant === 'default' && Object.prototype.hasOwnProperty.call(SECRETS, name) ? SECRETS[name]! : null,
  },
});
const engine: Engine = testEngine({ host });

const url = (scheme = 'https', name = 'mtls.test'): string => `${scheme}://${name}:${port}/hello`;
const CALL = '{api endpoint=$u var=r status_var=s http_code_var=c sslcert=$c1 sslkey=$k1 cainfo=$ca}{$s} {$c} {$r}';

async function call(vars: Record<string, string>, u = url()): Promise<{ output: string; logs: string }> {
  const r = await engine.render(CALL, { vars: { u, c1: '', k1: '', ca: '', ...vars } });
  return { output: r.output, logs: JSON.stringify([r.logs, r.warnings]) };
}

describe('{api} mTLS', () => {
  it('presents the client certificate and trusts the server through cainfo; the result goes to the log', async () => {
    const before = peers.length;
    const r = await call({ c1: 'CERT', k1: 'KEY', ca: 'CA' });
    expect(r.output).toBe('1 200 hello smartcage test client GET');
    expect(peers.slice(before)).toEqual(['smartcage test client']);
    expect(r.logs).toContain('mTLS request answered 200');
    // The key never comes back to the template or its log.
    expect(r.output + r.logs).not.toContain('PRIVATE KEY');
  });

  it('the server checks the certificate: none, or one of another CA, is refused (status 0)', async () => {
    expect((await call({ ca: 'CA' })).output).toBe('0 0 ');
    const rogue = await call({ c1: 'ROGUE_CERT', k1: 'ROGUE_KEY', ca: 'CA' });
    expect(rogue.output).toBe('0 0 ');
    expect(rogue.logs).toContain('(mTLS)');
  });

  it('a server whose certificate is not from cainfo is refused, as is one checked against the public CAs', async () => {
    const before = peers.length;
    expect((await call({ c1: 'CERT', k1: 'KEY', ca: 'WRONG_CA' })).output).toBe('0 0 ');
    expect((await call({ c1: 'CERT', k1: 'KEY' })).output).toBe('0 0 ');
    expect(peers.length).toBe(before);
  });

  it('the certificate stays with its request: a plain request afterwards presents none', async () => {
    expect((await call({ c1: 'CERT', k1: 'KEY', ca: 'CA' })).output).toMatch(/^1 200/);
    const before = peers.length;
    const r = await engine.render('{api endpoint=$u status_var=s http_code_var=c}{$s} {$c}', { vars: { u: url() } });
    expect(r.output).toBe('0 0');
    expect(peers.length).toBe(before);
  });

  it('follows no redirect out of the origin: the 3xx is the answer', async () => {
    const before = peers.length;
    const r = await call({ c1: 'CERT', k1: 'KEY', ca: 'CA' }, `https://mtls.test:${port}/away`);
    expect(r.output).toBe('1 302 ');
    expect(peers.length).toBe(before + 1);
  });

  it('a secret whose hosts do not list the origin is refused before any connection', async () => {
    const before = guard.stats.connections;
    const e = await templateError(call({ c1: 'CERT', k1: 'KEY_ELSEWHERE', ca: 'CA' }));
    expect(e.code).toBe('E_SECRET_DENIED');
    expect(e.message).toContain('KEY_ELSEWHERE');
    // Listed for mtls.test, not for other.test.
    expect((await templateError(call({ c1: 'CERT', k1: 'KEY', ca: 'CA' }, url('https', 'other.test')))).code).toBe(
      'E_SECRET_DENIED',
    );
    expect(guard.stats.connections).toBe(before);
  });

  it('refuses plain http, half pairs, values that are not PEM and a key of another certificate, never quoting a value', async () => {
    expect((await templateError(call({ c1: 'CERT_PLAIN', k1: 'KEY_PLAIN' }, url('http')))).code).toBe(
      'E_BAD_COMBINATION',
    );
    expect((await templateError(call({ c1: 'CERT' }))).code).toBe('E_BAD_COMBINATION');
    const notPem = await templateError(call({ c1: 'NOT_PEM', k1: 'KEY' }));
    expect(notPem.code).toBe('E_BAD_ATTRIBUTE');
    expect(notPem.message).not.toContain('31337');
    const mismatch = await templateError(call({ c1: 'CERT', k1: 'ROGUE_KEY', ca: 'CA' }));
    expect(mismatch.code).toBe('E_BAD_ATTRIBUTE');
    expect(mismatch.message).not.toContain('PRIVATE');
    expect((await templateError(call({ c1: 'NOPE', k1: 'KEY' }))).code).toBe('E_SECRET_NOT_FOUND');
  });
});
