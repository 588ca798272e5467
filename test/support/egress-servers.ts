/**
 * Real servers for the egress tests: an allow-side HTTP(S) server on 127.0.0.2 (made "public"
 * with `treatAsPublic`), a raw TCP server there for crafted responses, and a canary that
 * listens on the same port on every other local address and counts whatever reaches it.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import zlib from 'node:zlib';
import type { Resolver } from '../../src/host-adapters/egress/index.js';

export const PUBLIC_IP = '127.0.0.2';
export const CERT = readFileSync(new URL('../fixtures/tls/test-cert.pem', import.meta.url));
const KEY = readFileSync(new URL('../fixtures/tls/test-key.pem', import.meta.url));

interface Seen {
  method: string;
  url: string;
  host: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  tls: boolean;
}

/** Deterministic bytes for body checks. */
export function pattern(n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + (i >> 8)) & 255;
  return b;
}

/**
 * A gzip bomb: `members` concatenated gzip members of `memberMiB` MiB of zeros each (gunzip
 * decodes concatenated members as one stream). Cheap to build, large to inflate.
 */
function gzipBomb(memberMiB: number, members: number): Buffer {
  const one = zlib.gzipSync(Buffer.alloc(memberMiB * 1024 * 1024), { level: 9 });
  return Buffer.concat(new Array<Buffer>(members).fill(one));
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, tls: boolean) => void;

function route(port: () => { http: number; https: number }): Handler {
  return (req, res, body, tls) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const p = u.pathname;
    const q = u.searchParams;
    let m: RegExpMatchArray | null;
    if (p === '/echo') {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: body.toString('base64'), tls }),
      );
    } else if ((m = p.match(/^\/bytes\/(\d+)$/))) {
      const data = pattern(Number(m[1]));
      if (q.get('chunked') === '1') {
        res.setHeader('transfer-encoding', 'chunked');
        for (let i = 0; i < data.length; i += 65536) res.write(data.subarray(i, i + 65536));
        res.end();
      } else {
        res.setHeader('content-length', data.length);
        res.end(req.method === 'HEAD' ? undefined : data);
      }
    } else if ((m = p.match(/^\/status\/(\d+)$/))) {
      res.statusCode = Number(m[1]);
      res.end(res.statusCode === 204 || res.statusCode === 304 ? undefined : `status ${m[1]}`);
    } else if ((m = p.match(/^\/enc\/([a-z0-9-]+)$/))) {
      const data = pattern(Number(q.get('n') ?? '5000'));
      const enc = m[1]!;
      const encoded =
        enc === 'gzip'
          ? zlib.gzipSync(data)
          : enc === 'deflate'
            ? zlib.deflateSync(data)
            : enc === 'deflate-raw'
              ? zlib.deflateRawSync(data)
              : enc === 'br'
                ? zlib.brotliCompressSync(data)
                : enc === 'gzip-gzip'
                  ? zlib.gzipSync(zlib.gzipSync(data))
                  : enc.startsWith('bad-')
                    ? Buffer.from('this is not compressed data at all')
                    : enc === 'gzip-x3'
                      ? zlib.gzipSync(zlib.gzipSync(zlib.gzipSync(data)))
                      : data;
      const header =
        enc === 'deflate-raw'
          ? 'deflate'
          : enc === 'gzip-gzip'
            ? 'gzip, gzip'
            : enc === 'gzip-x3'
              ? 'gzip, gzip, gzip'
              : enc.startsWith('bad-')
                ? enc.slice(4)
                : enc;
      res.setHeader('content-encoding', header);
      res.end(encoded);
    } else if ((m = p.match(/^\/nest\/(\d+)$/))) {
      // JSON of N arrays, one inside the other, around a 1.
      const n = Math.min(Number(m[1]), 10_000);
      res.setHeader('content-type', 'application/json');
      res.end(`${'['.repeat(n)}1${']'.repeat(n)}`);
    } else if (p === '/redirect') {
      res.statusCode = Number(q.get('status') ?? '302');
      res.setHeader('location', q.get('to') ?? '/echo');
      res.end(`redirecting`);
    } else if ((m = p.match(/^\/chain\/(\d+)$/))) {
      // Redirects to /chain/n+1 until n reaches `stop` (default: never).
      const n = Number(m[1]);
      const stop = Number(q.get('stop') ?? '1000000');
      if (n >= stop) {
        res.end(`end of chain at ${n}`);
      } else {
        res.statusCode = 302;
        res.setHeader('location', `/chain/${n + 1}?stop=${stop}`);
        res.end();
      }
    } else if (p === '/bomb') {
      const bomb = q.get('kind') === 'br' ? BR_BOMB() : GZIP_BOMB();
      res.setHeader(
        'content-encoding',
        q.get('kind') === 'br' ? 'br' : q.get('kind') === 'gzip-gzip' ? 'gzip, gzip' : 'gzip',
      );
      res.end(q.get('kind') === 'gzip-gzip' ? NESTED_BOMB() : bomb);
    } else if (p === '/drip') {
      res.setHeader('content-type', 'text/plain');
      res.flushHeaders();
      const t = setInterval(() => res.write('x'), 50);
      res.on('close', () => clearInterval(t));
    } else if (p === '/hang') {
      // Never answers.
      req.socket.on('close', () => undefined);
    } else if (p === '/zeros') {
      res.setHeader('content-type', 'application/json');
      res.end(
        `[${Array(Number(q.get('n') ?? '1'))
          .fill('0')
          .join(',')}]`,
      );
    } else if (p === '/cookies') {
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.end('ok');
    } else if (p === '/close') {
      res.setHeader('connection', 'close');
      res.end('closing');
    } else {
      res.statusCode = 404;
      res.end('no route');
    }
    void port;
  };
}

let gzipBombCache: Buffer | undefined;
let brBombCache: Buffer | undefined;
let nestedBombCache: Buffer | undefined;
/** 512 MiB of zeros, about 0.5 MB on the wire. */
const GZIP_BOMB = (): Buffer => (gzipBombCache ??= gzipBomb(16, 32));
/** 256 MiB of zeros in brotli. */
const BR_BOMB = (): Buffer =>
  (brBombCache ??= zlib.brotliCompressSync(Buffer.alloc(256 * 1024 * 1024), {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
  }));
/** gzip(gzip(64 MiB of zeros)). */
const NESTED_BOMB = (): Buffer => (nestedBombCache ??= zlib.gzipSync(gzipBomb(16, 4)));

export interface TestNet {
  /** Port shared by the allow server (127.0.0.2) and the canary (every other local address). */
  port: number;
  /** HTTPS port of the allow server on 127.0.0.2. */
  httpsPort: number;
  /** Raw TCP server on 127.0.0.2 for crafted responses. */
  rawPort: number;
  seen: Seen[];
  canary: { connections: number; bytes: number; addresses: string[] };
  close(): Promise<void>;
}

/** Local addresses the canary listens on, besides loopback: the machine's own interfaces. */
function localAddresses(): string[] {
  const out = new Set<string>(['127.0.0.1', '::1']);
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.family === 'IPv6' && a.address.toLowerCase().startsWith('fe80')) continue;
      if (a.address === PUBLIC_IP) continue;
      out.add(a.address);
    }
  }
  return [...out];
}

function listen(server: net.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error): void => reject(e);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

const closeServer = (s: net.Server): Promise<void> =>
  new Promise((resolve) => {
    (s as http.Server).closeAllConnections?.();
    s.close(() => resolve());
  });

export async function startTestNet(): Promise<TestNet> {
  const seen: Seen[] = [];
  const canary = { connections: 0, bytes: 0, addresses: [] as string[] };
  const ports = { http: 0, https: 0 };
  const handler = route(() => ports);
  const wrap = (tls: boolean) => (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        host: req.headers.host ?? '',
        headers: req.headers,
        body,
        tls,
      });
      handler(req, res, body, tls);
    });
  };

  for (let attempt = 0; attempt < 20; attempt++) {
    const servers: net.Server[] = [];
    try {
      const plain = http.createServer({ maxHeaderSize: 256 * 1024 }, wrap(false));
      servers.push(plain);
      const port = await listen(plain, 0, PUBLIC_IP);
      for (const addr of localAddresses()) {
        const c = net.createServer((sock) => {
          canary.connections++;
          canary.addresses.push(addr);
          sock.on('data', (d) => (canary.bytes += d.length));
          sock.on('error', () => undefined);
          sock.end('HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\ncanary');
        });
        servers.push(c);
        try {
          await listen(c, port, addr);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL') continue; // address not bindable here
          throw e;
        }
      }
      const secure = https.createServer({ cert: CERT, key: KEY }, wrap(true));
      servers.push(secure);
      const httpsPort = await listen(secure, 0, PUBLIC_IP);
      const raw = net.createServer(rawHandler);
      servers.push(raw);
      const rawPort = await listen(raw, 0, PUBLIC_IP);
      ports.http = port;
      ports.https = httpsPort;
      return {
        port,
        httpsPort,
        rawPort,
        seen,
        canary,
        async close() {
          await Promise.all(servers.map(closeServer));
        },
      };
    } catch (e) {
      await Promise.all(servers.map(closeServer));
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    }
  }
  throw new Error('could not find a free port on all local addresses');
}

/** Crafted responses by request path: `/many-headers`, `/huge-header`. */
function rawHandler(sock: net.Socket): void {
  let buf = '';
  sock.on('error', () => undefined);
  sock.on('data', (d) => {
    buf += d.toString('latin1');
    if (!buf.includes('\r\n\r\n')) return;
    const path = buf.split(' ')[1] ?? '/';
    if (path === '/many-headers') {
      const lines: string[] = ['HTTP/1.1 200 OK'];
      for (let i = 0; i < 100_000; i++) lines.push(`x-h${i}: v`);
      sock.write(lines.join('\r\n') + '\r\ncontent-length: 2\r\n\r\nok', () => sock.end());
    } else if (path === '/huge-header') {
      sock.write(`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(200_000)}\r\ncontent-length: 2\r\n\r\nok`, () => sock.end());
    } else {
      sock.end('HTTP/1.1 200 OK\r\ncontent-length: 3\r\nconnection: close\r\n\r\nraw');
    }
  });
}

export interface RecordingResolver extends Resolver {
  calls: string[];
}

/** Names to fixed answers; unknown names fail like NXDOMAIN. */
export function mapResolver(map: Record<string, readonly string[]>): RecordingResolver {
  const calls: string[] = [];
  return {
    calls,
    async lookup(hostname: string) {
      calls.push(hostname);
      const key = hostname.replace(/\.$/, '');
      const answers = map[key];
      if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return answers.map((address) => ({ address, family: (net.isIP(address) === 6 ? 6 : 4) as 4 | 6 }));
    },
  };
}

/** Hostile DNS: every name points home. */
export function everythingHomeResolver(): RecordingResolver {
  const calls: string[] = [];
  return {
    calls,
    async lookup(hostname: string) {
      calls.push(hostname);
      return [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ];
    },
  };
}

/** DNS rebinding: answers from `sequence` in turn (TTL 0), the last one repeating. */
export function sequenceResolver(sequence: readonly (readonly string[])[]): RecordingResolver {
  const calls: string[] = [];
  return {
    calls,
    async lookup(hostname: string) {
      const answers = sequence[Math.min(calls.length, sequence.length - 1)]!;
      calls.push(hostname);
      return answers.map((address) => ({ address, family: (net.isIP(address) === 6 ? 6 : 4) as 4 | 6 }));
    },
  };
}
