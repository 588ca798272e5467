/**
 * What the webops tests share: a local HTTP server on 127.0.0.2 that plays a CDN purge endpoint,
 * a build hook and a small web site (names site.test, other.test and docs.test all point at it),
 * a test egress guard that allows exactly that address and port, and a sample site reopened with
 * settings of the test's own in site.json and secrets.json.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EgressGuard } from '../../../src/host-adapters/egress/index.js';
import { createEngine, type Engine, type SecretRecord } from '../../../src/index.js';
import { openSite, type Site } from '../../../src/site/open-site.js';
import { mapResolver, PUBLIC_IP } from '../../support/egress-servers.js';

interface Hit {
  method: string;
  host: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const html = (title: string, links: string[]): string =>
  `<!doctype html><html><head><title>${title}</title></head><body>${links.map((l) => `<a href="${l}">x</a>`).join('')}</body></html>`;

/** The web site, by path: /site/ links two levels down, outward, to fragments and to things that are not pages. */
function page(
  p: string,
  port: number,
): { status?: number; type?: string; body: string | Buffer; location?: string; delayMs?: number } | undefined {
  const other = `http://other.test:${port}`;
  const pages: Record<string, ReturnType<typeof page>> = {
    '/site/': {
      body: html('Home', [
        '/site/a',
        'b',
        '/site/a#top',
        `${other}/x`,
        'mailto:a@example.com',
        'javascript:void(0)',
        `http://docs.test:${port}/docs/`,
      ]),
    },
    '/site/a': { body: html(' Page  A ', ['/site/c', '/site/']) },
    '/site/b': { body: html('Page B', ['/site/redirect', '/site/plain', '/site/big', '/site/missing']) },
    '/site/c': { body: html('Page C', ['/site/d']) },
    '/site/d': { body: html('Page D', []) },
    '/site/plain': { type: 'text/plain', body: '<a href="/site/never">not html</a>' },
    '/site/big': { body: Buffer.alloc(1024 * 1024 + 10, 0x61) },
    '/site/redirect': { status: 302, location: `${other}/landing`, body: '' },
    '/site/slow': { body: html('Slow', []), delayMs: 3000 },
    '/docs/': { body: html('Docs', ['/docs/1']) },
    '/docs/1': { body: html('Docs 1', []) },
    '/landing': { body: html('Elsewhere', ['/site/never']) },
    '/x': { body: html('Other', []) },
    '/purge': { body: 'purged' },
    '/hook': { body: '{"job":"started"}', type: 'application/json' },
  };
  if (p.startsWith('/fail/')) return { status: Number(p.slice(6)), body: 'failed' };
  return Object.prototype.hasOwnProperty.call(pages, p) ? pages[p] : undefined;
}

export interface WebServer {
  port: number;
  hits: Hit[];
  guard: EgressGuard;
  url(host: string, p: string): string;
  close(): Promise<void>;
}

export async function startWebServer(): Promise<WebServer> {
  const hits: Hit[] = [];
  let port = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const p = new URL(req.url ?? '/', 'http://x').pathname;
      hits.push({
        method: req.method ?? '',
        host: (req.headers.host ?? '').split(':')[0]!,
        path: p,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      const found = page(p, port);
      const answer = (): void => {
        if (!found) {
          res.statusCode = 404;
          res.end('not found');
          return;
        }
        res.statusCode = found.status ?? 200;
        if (found.location) res.setHeader('location', found.location);
        res.setHeader('content-type', found.type ?? 'text/html; charset=utf-8');
        res.end(found.body);
      };
      if (found?.delayMs) setTimeout(answer, found.delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, PUBLIC_IP, resolve));
  port = (server.address() as AddressInfo).port;
  const guard = new EgressGuard(
    { allowedPorts: [port], treatAsPublic: [PUBLIC_IP], timeoutMs: 10_000 },
    mapResolver({ 'site.test': [PUBLIC_IP], 'other.test': [PUBLIC_IP], 'docs.test': [PUBLIC_IP] }),
  );
  return {
    port,
    hits,
    guard,
    url: (host, p) => `http://${host}:${port}${p}`,
    async close() {
      await guard.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The site folder's site.json with `patch` merged in, and secrets.json replaced; the site reopened. */
export async function reopenWith(
  site: Site,
  patch: Record<string, unknown>,
  secrets: Record<string, SecretRecord> = {},
): Promise<Site> {
  const file = path.join(site.dir, 'site.json');
  const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...json, ...patch }, null, 2));
  writeFileSync(path.join(site.dir, 'secrets.json'), JSON.stringify(secrets));
  return openSite(site.dir);
}

export interface SiteRenderer {
  render(template: string, vars?: Record<string, unknown>): ReturnType<Engine['render']>;
  close(): Promise<void>;
}

/** Renders on the site, as its own tenant, with the test guard as its outbound HTTP. */
/** `context`: the renders' (a web render's {kick_spider} queues its crawl; a batch's crawls). */
export function siteEngine(
  site: Site,
  web: WebServer,
  wallMs?: number,
  context: 'web' | 'batch' = 'web',
): SiteRenderer {
  const engine = createEngine({
    ...site.engineOptions(),
    host: { ...site.host, http: { fetch: (req) => web.guard.fetch(req) } },
    workers: 1,
    ...(wallMs !== undefined ? { limits: { wallMs } } : {}),
  });
  return {
    render: (template, vars = {}) => engine.render(template, { vars, identity: site.identity({ context }) }),
    close: () => engine.close(),
  };
}
