/**
 * A certificate authority made for one test run with Debian's `openssl` (EC P-256, valid two
 * days), never committed: a server certificate for the names given, a client certificate, and a
 * second, unrelated CA with a client certificate of its own (one the server must refuse).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface KeyPair {
  cert: string;
  key: string;
}

export interface TestPki {
  ca: KeyPair;
  server: KeyPair;
  client: KeyPair;
  /** Another CA, trusted by nobody here. */
  rogueCa: KeyPair;
  /** A client certificate issued by rogueCa. */
  rogueClient: KeyPair;
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

function read(dir: string, base: string): KeyPair {
  return {
    cert: readFileSync(path.join(dir, `${base}.pem`), 'utf8'),
    key: readFileSync(path.join(dir, `${base}.key`), 'utf8'),
  };
}

function makeCa(dir: string, base: string, cn: string): KeyPair {
  openssl(dir, [
    'req',
    '-x509',
    ...EC,
    '-days',
    '2',
    '-subj',
    `/CN=${cn}`,
    '-keyout',
    `${base}.key`,
    '-out',
    `${base}.pem`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  return read(dir, base);
}

function issue(dir: string, ca: string, base: string, cn: string, ext: string): KeyPair {
  writeFileSync(path.join(dir, `${base}.ext`), ext);
  openssl(dir, ['req', ...EC, '-subj', `/CN=${cn}`, '-keyout', `${base}.key`, '-out', `${base}.csr`]);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${base}.csr`,
    '-CA',
    `${ca}.pem`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-days',
    '2',
    '-out',
    `${base}.pem`,
    '-extfile',
    `${base}.ext`,
  ]);
  return read(dir, base);
}

/** `names`: DNS names and IPv4 addresses the server certificate is for. */
export function makeTestPki(names: readonly string[]): TestPki {
  const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-pki-'));
  try {
    const san = names.map((n) => (/^\d+\.\d+\.\d+\.\d+$/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
    const ca = makeCa(dir, 'ca', 'smartcage test CA');
    const rogueCa = makeCa(dir, 'rogue-ca', 'smartcage rogue CA');
    return {
      ca,
      rogueCa,
      server: issue(dir, 'ca', 'server', names[0] ?? 'server', `subjectAltName=${san}\nextendedKeyUsage=serverAuth\n`),
      client: issue(dir, 'ca', 'client', 'smartcage test client', 'extendedKeyUsage=clientAuth\n'),
      rogueClient: issue(dir, 'rogue-ca', 'rogue-client', 'rogue client', 'extendedKeyUsage=clientAuth\n'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
