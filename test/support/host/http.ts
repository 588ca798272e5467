/**
 * The test host's api-family adapters, with no network beyond loopback:
 *  - http: the real EgressGuard, pointed at a local server on 127.0.0.2 (made public for this
 *    guard only with `treatAsPublic`) through a test resolver that maps api.example.com to it.
 *    URLs of api.example.com on the default port are sent to the server's port (the server
 *    cannot bind 80/443 everywhere). Started on first use and kept for the process.
 *  - internalApi / members / apiTokens / cookies: small in-memory stand-ins for tenant "default".
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HostAdapters, InternalApiRequest } from '../../../src/host-api/host.js';
import { EgressGuard, type EgressRequest } from '../../../src/host-adapters/egress/index.js';
import { integrationRoute } from './integrations.js';

const TEST_API_HOST = 'api.example.com';
const TEST_API_IP = '127.0.0.2';

function route(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): void {
  const u = new URL(req.url ?? '/', 'http://x');
  const json = (v: unknown, status = 200): void => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(v));
  };
  switch (u.pathname) {
    case '/hello':
      res.setHeader('content-type', 'text/plain');
      res.end('hello');
      return;
    case '/items': {
      const all = [{ name: 'apple' }, { name: 'pear' }, { name: 'plum' }];
      json({ items: all.slice(0, Number(u.searchParams.get('cnt') ?? '3')) });
      return;
    }
    case '/whoami':
      res.end(req.headers.authorization === 'Bearer example-token-value' ? 'authorized' : 'anonymous');
      return;
    case '/echo':
      json({
        method: req.method,
        url: req.url,
        contentType: req.headers['content-type'] ?? null,
        headers: req.headers,
        body: body.toString('utf8'),
      });
      return;
    case '/redirect':
      res.statusCode = Number(u.searchParams.get('status') ?? '302');
      res.setHeader('location', u.searchParams.get('to') ?? '/hello');
      res.end();
      return;
    case '/slow':
      setTimeout(() => res.end('slow'), Number(u.searchParams.get('ms') ?? '2000'));
      return;
    default:
      if (integrationRoute(req, body, res)) return;
      res.statusCode = 404;
      res.end('not found');
  }
}

interface TestNet {
  port: number;
  guard: EgressGuard;
}
let started: Promise<TestNet> | undefined;

function startNet(): Promise<TestNet> {
  return new Promise((resolve, reject) => {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => route(req, Buffer.concat(chunks), res));
    });
    server.once('error', reject);
    server.listen(0, TEST_API_IP, () => {
      server.unref();
      const port = (server.address() as AddressInfo).port;
      const guard = new EgressGuard(
        { allowedPorts: [80, 443, port], treatAsPublic: [TEST_API_IP], timeoutMs: 10_000 },
        {
          async lookup(name) {
            if (name.toLowerCase() === TEST_API_HOST) return [{ address: TEST_API_IP, family: 4 }];
            throw Object.assign(new Error(`test resolver: no such name ${name}`), { code: 'ENOTFOUND' });
          },
        },
      );
      resolve({ port, guard });
    });
  });
}

/** The lazily started local API server and its guard (one per process). */
function testNet(): Promise<TestNet> {
  return (started ??= startNet());
}

/** api.example.com on its default port goes to the local server's port (plain http). */
function toLocal(url: string, port: number): string {
  try {
    const u = new URL(url);
    if (u.hostname === TEST_API_HOST && u.port === '') {
      u.protocol = 'http:';
      u.port = String(port);
      return u.href;
    }
  } catch {
    // the guard reports malformed URLs itself
  }
  return url;
}

const INTERNAL: Record<string, { method: 'GET' | 'POST'; answer: (r: InternalApiRequest) => unknown }> = {
  '/rcms-api/1/topics': {
    method: 'GET',
    answer: () => ({
      list: [
        { topics_id: 1, subject: 'Hello' },
        { topics_id: 2, subject: 'World' },
      ],
      pageInfo: { totalCnt: 2 },
    }),
  },
  '/rcms-api/1/me': { method: 'GET', answer: (r) => ({ member_id: r.actAs }) },
  '/rcms-api/1/post-only': { method: 'POST', answer: () => ({ ok: true }) },
  '/management/topics/list/': { method: 'GET', answer: () => ({ total: 2 }) },
};

const SUPER_USER_ID = 1;
const TEST_NOW = 1700000000;

/** The test host's HTTP and API adapters: a tenant's. Only "default" has internal endpoints and tokens. */
export function httpTestAdapter(): (tenant: string) => Partial<HostAdapters> {
  const jar = new Map<string, string>();
  return (tenant) => ({
    http: {
      async fetch(req: EgressRequest) {
        const net = await testNet();
        return net.guard.fetch({ ...req, url: toLocal(req.url, net.port) });
      },
    },
    members: {
      async isSuperUser(memberId) {
        return memberId === SUPER_USER_ID;
      },
    },
    internalApi: {
      async endpointMethod(endpoint) {
        return tenant === 'default' && Object.prototype.hasOwnProperty.call(INTERNAL, endpoint)
          ? INTERNAL[endpoint]!.method
          : null;
      },
      async request(req) {
        const def =
          tenant === 'default' && Object.prototype.hasOwnProperty.call(INTERNAL, req.endpoint)
            ? INTERNAL[req.endpoint]
            : undefined;
        const kindOk =
          def && (req.endpoint.startsWith('/management/') ? req.kind === 'management' : req.kind !== 'management');
        if (!def || !kindOk) return { status: 404, body: '{"errors":["not found"]}' };
        if (def.method !== req.method) return { status: 405, body: '{"errors":["method not allowed"]}' };
        return { status: 200, body: JSON.stringify(def.answer(req)) };
      },
    },
    apiTokens: {
      async issue(req) {
        if (tenant !== 'default') return null;
        if (req.apiId === 1 && req.type === 'static')
          return { token: 'static-token-1', expiresAt: TEST_NOW + (req.expiresSeconds ?? 86400) };
        if (req.apiId === 2 && req.type === 'dynamic')
          return {
            token: `dynamic-token-2-${req.memberId ?? 'guest'}`,
            expiresAt: TEST_NOW + (req.expiresSeconds ?? 3600),
          };
        return null;
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
