/**
 * The harness host's api-family adapters (http, internalApi, members, apiTokens, cookies).
 *
 * http is a real EgressGuard with the production policy (DEFAULT_EGRESS_POLICY) plus exactly
 * what the harness needs to exercise it honestly:
 *  - the canary listeners' ports and the allowed server's ports are added to the port
 *    allow-list, so that an internal address is refused by the ADDRESS rules, not by its port;
 *  - one allowed test server on 127.0.0.2 (made public with `treatAsPublic`, the only test-only
 *    entry), bound where possible on the internal canary's port so that a rebinding name can
 *    point at either on the same port; it also speaks HTTPS on a port of its own, with a
 *    certificate only this guard trusts (tls.ts), for the cases whose secrets need https;
 *  - a test resolver that maps attacker-chosen names to the canaries (see NAMES).
 * The allowed server records every request it sees (`harnessHttp().seen`), so cases can prove
 * that a secret never arrived anywhere.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import type { HostAdapters, InternalApiRequest } from '../../host-api/host.js';
import { DEFAULT_EGRESS_POLICY, EgressGuard, type Resolver } from '../../host-adapters/egress/index.js';
import type { CanaryState } from './state.js';
import { reflectRoute } from './reflect.js';
import { HARNESS_CERT, HARNESS_KEY } from './tls.js';

const ALLOWED_IP = '127.0.0.2';

export interface SeenRequest {
  method: string;
  tls: boolean;
  host: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface HttpHarnessState {
  /** Port of the allowed server (127.0.0.2), usually the internal canary's port too. */
  port: number;
  /** HTTPS port of the allowed server (127.0.0.2; certificate in tls.ts, trusted by this guard only). */
  httpsPort: number;
  /** Raw TCP server on 127.0.0.2 for crafted responses (100 000 headers). */
  rawPort: number;
  internal: { host: string; port: number };
  metadata: { host: string; port: number };
  seen: SeenRequest[];
  /** Tenants the internalApi adapter was asked for, in order. */
  internalCalls: { tenant: string; req: InternalApiRequest }[];
  guard: EgressGuard;
  /** `/drip` responses whose connection the client has not closed yet (CPU-11). */
  openDrips(): number;
}

let current: HttpHarnessState | undefined;

/** The state of the latest harness http adapter (cases read ports and what the server saw). */
export function harnessHttp(): HttpHarnessState {
  if (!current) throw new Error('the harness http adapter has not been started');
  return current;
}

function split(hostPort: string): { host: string; port: number } {
  const i = hostPort.lastIndexOf(':');
  return { host: hostPort.slice(0, i), port: Number(hostPort.slice(i + 1)) };
}

/** A JSON object whose keys are names of Object.prototype (IS-15). */
export const PROTO_KEYS_JSON = '{"__proto__":{"polluted":1},"constructor":{"prototype":{"p":2}},"toString":3}';

let bombCache: Buffer | undefined;
/** 64 MiB of zeros gzipped (about 64 KB on the wire). */
const bomb = (): Buffer => (bombCache ??= zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 }));

function route(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  counters: Map<string, number>,
  httpsPort: number,
): void {
  if (reflectRoute(req, res, `https://attacker.example:${httpsPort}`)) return;
  const u = new URL(req.url ?? '/', 'http://x');
  const q = u.searchParams;
  switch (u.pathname) {
    case '/hello':
      res.end('hello');
      return;
    case '/page': {
      // A page whose subresources are the URLs `to` names, as image, frame, script fetch and link (NET-14).
      const urls = q.getAll('to').map((t) => t.replace(/[^A-Za-z0-9:/._?=&%-]/g, ''));
      res.setHeader('content-type', 'text/html');
      res.end(
        `<html><body><p>page</p>${urls.map((t) => `<img src="${t}"><iframe src="${t}"></iframe><link rel="stylesheet" href="${t}">`).join('')}` +
          `<script>${urls.map((t) => `fetch(${JSON.stringify(t)}).catch(() => {});`).join('')}</script></body></html>`,
      );
      return;
    }
    case '/who':
      // Closes the connection so a rebinding name is resolved again for the next request.
      res.setHeader('connection', 'close');
      res.end('public-server');
      return;
    case '/proto':
      // Keys that are names of Object.prototype, as a remote server may send them (IS-15).
      res.setHeader('content-type', 'application/json');
      res.end(PROTO_KEYS_JSON);
      return;
    case '/values': {
      // JSON of `n` values made to be costly to decode (MEM-16): zeros, nested empty arrays or an object's keys.
      const n = Math.min(Number(q.get('n') ?? '0'), 6_000_000);
      const shape = q.get('shape');
      res.setHeader('content-type', 'application/json');
      if (shape === 'keys') res.end(`{${Array.from({ length: n }, (_, i) => `"k${i}":0`).join(',')}}`);
      else if (shape === 'nested')
        res.end(
          `[${Array(Math.ceil(n / 10))
            .fill('[[[[[[[[[]]]]]]]]]')
            .join(',')}]`,
        );
      else res.end(`[${Array(n).fill('0').join(',')}]`);
      return;
    }
    case '/echo':
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method, authorization: req.headers.authorization ?? null }));
      return;
    case '/private': {
      const n = (counters.get('private') ?? 0) + 1;
      counters.set('private', n);
      res.end(`private:${String(req.headers['x-private'] ?? 'none')}:${n}`);
      return;
    }
    case '/redirect':
      res.statusCode = Number(q.get('status') ?? '302');
      // As a server sends it: the target's UTF-8 bytes, which Node writes only as latin1 text (NET-17).
      res.setHeader('location', Buffer.from(q.get('to') ?? '/hello', 'utf8').toString('latin1'));
      res.end('redirecting');
      return;
    case '/chain': {
      const n = Number(q.get('n') ?? '0');
      res.statusCode = 302;
      res.setHeader('location', `/chain?n=${n + 1}`);
      res.end();
      return;
    }
    case '/bomb':
      res.setHeader('content-encoding', 'gzip');
      res.end(bomb());
      return;
    case '/endless': {
      // An endless body: the guard's byte cap must stop it.
      const chunk = Buffer.alloc(64 * 1024, 120);
      const pump = (): void => {
        while (res.write(chunk)) if (res.destroyed) return;
        res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
      return;
    }
    case '/drip': {
      res.flushHeaders();
      counters.set('drip-open', (counters.get('drip-open') ?? 0) + 1);
      const t = setInterval(() => res.write('x'), 200);
      res.on('close', () => {
        clearInterval(t);
        counters.set('drip-open', counters.get('drip-open')! - 1);
      });
      return;
    }
    default:
      res.statusCode = 404;
      res.end('not found');
  }
}

function listen(server: net.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      server.unref();
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Attacker-chosen names and what the test resolver answers for them. */
function resolver(s: () => HttpHarnessState): Resolver {
  let flips = 0;
  return {
    async lookup(name) {
      const st = s();
      const v4 = (address: string) => ({ address, family: 4 as const });
      switch (name.toLowerCase().replace(/\.$/, '')) {
        case 'api.example.com':
        case 'attacker.example':
        case 'public.attacker.example':
          return [v4(ALLOWED_IP)];
        case 'internal.attacker.example':
        case 'localtest.me':
        case '127.0.0.1.nip.io':
          return [v4(st.internal.host)];
        case 'metadata.attacker.example':
          return [v4(st.metadata.host)];
        case 'mixed.attacker.example':
          return [v4(ALLOWED_IP), v4(st.internal.host)];
        case 'mixed2.attacker.example':
          return [v4(st.internal.host), v4(ALLOWED_IP)];
        case 'v6.attacker.example':
          return [{ address: '::ffff:127.0.0.1', family: 6 }];
        case 'rebind.attacker.example':
          // public, then private, then public...: TTL 0 rebinding.
          return [v4(flips++ % 2 === 0 ? ALLOWED_IP : st.internal.host)];
        default:
          throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      }
    },
  };
}

/** Tenants' internal APIs: "default" has /rcms-api/1/*, "victim" has /rcms-api/9/victim-only. */
const INTERNAL: Record<string, Record<string, { method: 'GET' | 'POST'; body: string }>> = {
  default: {
    '/rcms-api/1/me': { method: 'GET', body: '{"ok":1}' },
    '/rcms-api/1/post-only': { method: 'POST', body: '{"ok":1}' },
    '/x': { method: 'GET', body: '{"ok":1}' },
  },
  victim: { '/rcms-api/9/victim-only': { method: 'GET', body: '{"victim_data":"VICTIM-ROW"}' } },
};

export async function httpAdapter(c: CanaryState): Promise<(tenant: string) => Partial<HostAdapters>> {
  const internal = split(c.listeners.internal);
  const metadata = split(c.listeners.metadata);
  const seen: SeenRequest[] = [];
  const counters = new Map<string, number>();
  let httpsPort = 0;
  const handle = (tls: boolean) => (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        tls,
        host: req.headers.host ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      route(req, res, counters, httpsPort);
    });
  };
  const server = http.createServer(handle(false));
  const port = await listen(server, internal.port, ALLOWED_IP).catch(() => listen(server, 0, ALLOWED_IP));
  httpsPort = await listen(https.createServer({ cert: HARNESS_CERT, key: HARNESS_KEY }, handle(true)), 0, ALLOWED_IP);
  const raw = net.createServer((sock) => {
    sock.on('error', () => undefined);
    sock.once('data', () => {
      const lines = ['HTTP/1.1 200 OK'];
      for (let i = 0; i < 100_000; i++) lines.push(`x-h${i}: v`);
      sock.end(`${lines.join('\r\n')}\r\ncontent-length: 2\r\n\r\nok`);
    });
  });
  const rawPort = await listen(raw, 0, ALLOWED_IP);
  let state: HttpHarnessState | undefined;
  const guard = new EgressGuard(
    {
      ...DEFAULT_EGRESS_POLICY,
      allowedPorts: [
        ...new Set([...DEFAULT_EGRESS_POLICY.allowedPorts, port, httpsPort, rawPort, internal.port, metadata.port]),
      ],
      treatAsPublic: [ALLOWED_IP],
    },
    resolver(() => state!),
    { ca: HARNESS_CERT },
  );
  state = {
    port,
    httpsPort,
    rawPort,
    internal,
    metadata,
    seen,
    internalCalls: [],
    guard,
    openDrips: () => counters.get('drip-open') ?? 0,
  };
  if (current) {
    // A previous harness run in this process: its guard is no longer used.
    void current.guard.close().catch(() => undefined);
  }
  current = state;
  const st = state;
  const jar = new Map<string, string>();
  const tokens: Record<string, Record<number, 'static' | 'dynamic'>> = {
    default: { 1: 'static', 2: 'dynamic' },
    victim: { 999: 'static' },
  };
  return (tenant) => ({
    http: { fetch: (req) => guard.fetch(req) },
    members: {
      async isSuperUser(memberId) {
        return memberId === 1;
      },
    },
    internalApi: {
      async endpointMethod(endpoint) {
        const t = INTERNAL[tenant];
        return t && Object.prototype.hasOwnProperty.call(t, endpoint) ? t[endpoint]!.method : null;
      },
      async request(req) {
        st.internalCalls.push({ tenant, req });
        const t = INTERNAL[tenant];
        const def = t && Object.prototype.hasOwnProperty.call(t, req.endpoint) ? t[req.endpoint] : undefined;
        if (!def) return { status: 404, body: '{"errors":["not found"]}' };
        return { status: 200, body: def.body };
      },
    },
    apiTokens: {
      async issue(req) {
        const t = tokens[tenant];
        if (!t || t[req.apiId] !== req.type) return null;
        return {
          token: `token-${tenant}-${req.apiId}`,
          expiresAt: Math.floor(Date.now() / 1000) + (req.expiresSeconds ?? 3600),
        };
      },
    },
    cookies: {
      async get(requestId, name) {
        return jar.get(`${tenant}\0${requestId}\0${name}`) ?? null;
      },
      async set(requestId, name, value) {
        jar.set(`${tenant}\0${requestId}\0${name}`, value);
      },
    },
  });
}
