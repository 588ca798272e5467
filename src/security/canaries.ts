/**
 * Things no template may ever reach: a file outside every tenant root, another tenant's secret,
 * and TCP listeners on loopback addresses posing as internal services (one as the cloud metadata
 * service). Every case checks that none was touched.
 */
import { createServer, type Server } from 'node:net';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { HostAdapters, HostResolver } from '../host-api/host.js';
import type { Canaries } from './types.js';
import type { CanaryState } from './host/state.js';
import { filesAdapter, outsideFileTouched } from './host/files.js';
import { httpAdapter } from './host/http.js';
import { mailAdapter } from './host/mail.js';

export interface RunningCanaries extends Canaries {
  /** The harness's own host, per tenant: secrets for the attacking tenant "default" and the victim tenant. */
  readonly host: HostResolver;
  readonly outsideFilePath: string;
  /** host:port of the listeners, for cases that aim at them. */
  readonly listeners: { internal: string; metadata: string };
  readonly ownSecretValue: string;
  /** A second secret of "default" for the same host, with the characters encodings change (HH-03). */
  readonly ownPasswordValue: string;
  stop(): Promise<void>;
}

export async function startCanaries(): Promise<RunningCanaries> {
  const dir = mkdtempSync(join(tmpdir(), 'smartcage-canary-'));
  const outsideFileContent = `CANARY-FILE-${randomBytes(12).toString('hex')}`;
  const outsideFilePath = join(dir, 'outside.txt');
  writeFileSync(outsideFilePath, outsideFileContent);
  const otherSecretValue = `CANARY-SECRET-${randomBytes(12).toString('hex')}`;
  const ownSecretValue = `OWN-SECRET-${randomBytes(12).toString('hex')}`;
  const ownPasswordValue = `Own/Pw+= &?"\\é~*'()-${randomBytes(12).toString('hex')}`;
  let connections = 0;
  const siteKeys = new Map<string, Uint8Array>();
  const touches: string[] = [];
  const listen = (host: string) =>
    new Promise<Server>((resolve, reject) => {
      const s = createServer((sock) => {
        connections++;
        sock.destroy();
      });
      s.once('error', reject);
      s.listen(0, host, () => resolve(s));
    });
  const internal = await listen('127.0.0.1');
  const metadata = await listen('127.0.0.3').catch(() => listen('127.0.0.1'));
  const addr = (s: Server) => {
    const a = s.address();
    return typeof a === 'object' && a ? `${a.address}:${a.port}` : '';
  };
  const secrets: Record<string, Record<string, { value: string; hosts?: string[] }>> = {
    default: {
      API_TOKEN: { value: ownSecretValue, hosts: ['api.example.com'] },
      API_PASSWORD: { value: ownPasswordValue, hosts: ['api.example.com'] },
    },
    victim: { VICTIM_KEY: { value: otherSecretValue } },
  };
  const state: CanaryState = {
    dir,
    outsideFilePath,
    outsideFileContent,
    otherSecretValue,
    ownSecretValue,
    listeners: { internal: addr(internal), metadata: addr(metadata) },
    touch: (what) => touches.push(what),
  };
  const families = await Promise.all([filesAdapter(state), httpAdapter(state), mailAdapter(state)]);
  const hosts = new Map<string, HostAdapters>();
  /** One tenant's adapters, made on its first render and kept: each answers for that tenant only. */
  const hostOf = (tenant: string): HostAdapters => {
    const known = hosts.get(tenant);
    if (known) return known;
    const host: HostAdapters = {
      ...Object.assign({}, ...families.map((f) => f(tenant))),
      crypto: { siteKey: async () => siteKeys.get(tenant) ?? siteKeys.set(tenant, randomBytes(32)).get(tenant)! },
      secrets: {
        async get(name) {
          const own = secrets[tenant];
          return own && Object.prototype.hasOwnProperty.call(own, name) ? own[name] : null;
        },
      },
    };
    hosts.set(tenant, host);
    return host;
  };
  return {
    outsideFileContent,
    outsideFilePath,
    otherSecretValue,
    ownSecretValue,
    ownPasswordValue,
    listeners: { internal: addr(internal), metadata: addr(metadata) },
    connections: () => connections + touches.length,
    leaked: (text) =>
      text.includes(outsideFileContent) ||
      text.includes(otherSecretValue) ||
      text.includes(ownSecretValue) ||
      text.includes(ownPasswordValue) ||
      text.includes(dir),
    host: (identity) => {
      outsideFileTouched();
      return hostOf(identity.tenant);
    },
    async stop() {
      await Promise.all([internal, metadata].map((s) => new Promise((r) => s.close(r))));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
