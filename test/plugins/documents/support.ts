/**
 * What the documents tests share: a real HTTP server on a loopback address that records what it
 * was asked, an egress guard that lets only the test's "public" server through, the host of a
 * test tenant over a temporary files folder, and readers of what the plugins wrote (poppler's
 * pdftotext and pdftoppm, PNG headers).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EgressGuard } from '../../../src/host-adapters/egress/index.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface TestServer {
  host: string;
  port: number;
  origin: string;
  seen: Seen[];
  upgrades: number;
  close(): Promise<void>;
}

export type Handler = (req: Seen, res: http.ServerResponse) => void;

/** A server on `host` (127.0.0.1 is the "public" one, 127.0.0.3 a refused one) answering by path. */
export function startServer(host: string, routes: Record<string, Handler>): Promise<TestServer> {
  return new Promise((resolve, reject) => {
    const state = { seen: [] as Seen[], upgrades: 0 };
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const seen = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        state.seen.push(seen);
        const route = routes[new URL(seen.url, 'http://x').pathname];
        if (route) return route(seen, res);
        res.statusCode = 404;
        res.end('not found');
      });
    });
    server.on('upgrade', (_req, socket) => {
      state.upgrades++;
      socket.destroy();
    });
    server.once('error', reject);
    server.listen(0, host, () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        host,
        port,
        origin: `http://${host}:${port}`,
        get seen() {
          return state.seen;
        },
        get upgrades() {
          return state.upgrades;
        },
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

/** The guard of the tests: 127.0.0.1 counts as public (the test's site), everything else is as in production. */
export function testGuard(ports: number[]): EgressGuard {
  return new EgressGuard({ allowedPorts: [80, 443, ...ports], treatAsPublic: ['127.0.0.1'], timeoutMs: 10_000 });
}

export function html(body: string): Handler {
  return (_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(
      `<!doctype html><html><head><meta charset="utf-8"><style>body { font: 40px sans-serif; }</style></head><body>${body}</body></html>`,
    );
  };
}

/** The text poppler reads in a PDF (pdftotext), and whether pdftoppm renders its first page. */
export function readPdf(data: Uint8Array): { text: string; rendered: boolean; pages: number } {
  const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-pdf-'));
  const file = path.join(dir, 'in.pdf');
  writeFileSync(file, data);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  execFileSync('pdftoppm', ['-png', '-r', '30', '-f', '1', '-l', '1', file, path.join(dir, 'p')]);
  const rendered = readFileSync(path.join(dir, 'p-1.png')).subarray(1, 4).toString('latin1') === 'PNG';
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? '0');
  return { text, rendered, pages };
}

/** Width and height from a PNG's IHDR. */
export function pngSize(data: Uint8Array): { width: number; height: number } {
  const b = Buffer.from(data);
  expectMagic(b.subarray(1, 4).toString('latin1') === 'PNG', 'not a PNG');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function expectMagic(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}
