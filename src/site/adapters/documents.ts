/**
 * The documents family of a local site: the browser of {generate_pdf} (Debian's Chromium), the OCR of
 * {detect_document_text} (tesseract) and the texts it read (rows of `document_texts`).
 *
 * The site's own pages: a page or subresource on the site's root_url origin under /files/user/ or
 * /files/g/public/ (the site's public files) is answered from the site's files, not the network,
 * so {generate_pdf} can capture what the site publishes though its root_url is a local address
 * the guard refuses. Anything else on that origin is 404; other origins go through the guard.
 */
import {
  ChromiumBrowser,
  TesseractOcr,
  parseVirtualPath,
  type BrowserAdapter,
  type EgressRequest,
  type EgressResponse,
  type HostAdapters,
} from '../../index.js';
import type { SiteContext } from '../site-context.js';
import { siteFiles } from './basic.js';
import { nowSeconds } from './credentials.js';

/** Folders of the site's files its root_url serves. */
const PUBLIC_FOLDERS = ['/files/user/', '/files/g/public/'];
const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  woff2: 'font/woff2',
};

function notFound(url: string): EgressResponse {
  return {
    status: 404,
    headers: [['content-type', 'text/plain; charset=utf-8']],
    body: Buffer.from('not found'),
    url,
    redirects: 0,
  };
}

/** A request to the site's own origin, answered from its public files. */
async function ownPage(ctx: SiteContext, req: EgressRequest, url: URL): Promise<EgressResponse> {
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return notFound(url.href);
  }
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !PUBLIC_FOLDERS.some((f) => pathname.startsWith(f)))
    return notFound(url.href);
  try {
    const body = await siteFiles(ctx).read(parseVirtualPath(pathname));
    const ext = /\.([a-z0-9]+)$/i.exec(pathname)?.[1]?.toLowerCase() ?? '';
    return {
      status: 200,
      headers: [['content-type', TYPES[ext] ?? 'application/octet-stream']],
      body: req.method === 'HEAD' ? new Uint8Array() : body,
      url: url.href,
      redirects: 0,
    };
  } catch {
    // A path no virtual path can name, a folder, a missing file: all one answer.
    return notFound(url.href);
  }
}

function siteBrowser(ctx: SiteContext, browser: BrowserAdapter): BrowserAdapter {
  const origin = new URL(ctx.config.root_url).origin;
  return {
    capture(job) {
      return browser.capture({
        ...job,
        fetch: (req) => {
          const url = new URL(req.url);
          return url.origin === origin ? ownPage(ctx, req, url) : job.fetch(req);
        },
      });
    },
    close: () => browser.close?.() ?? Promise.resolve(),
  };
}

export function documentsAdapters(ctx: SiteContext): Partial<HostAdapters> {
  const tenant = ctx.tenant;
  return {
    browser: siteBrowser(ctx, new ChromiumBrowser()),
    ocr: new TesseractOcr(),
    documentTexts: {
      async get(key) {
        const row = await ctx.db.get<{ pages: string }>(
          'SELECT pages FROM document_texts WHERE tenant = ? AND path = ? AND engine = ? AND sha256 = ?',
          [tenant, key.path, key.engine, key.sha256],
        );
        return row ? (JSON.parse(row.pages) as string[]) : null;
      },
      async put(key, pages) {
        await ctx.db.run(
          `INSERT INTO document_texts (tenant, path, engine, sha256, pages, read_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (tenant, path, engine) DO UPDATE SET sha256 = excluded.sha256, pages = excluded.pages, read_at = excluded.read_at`,
          [tenant, key.path, key.engine, key.sha256, JSON.stringify(pages), nowSeconds()],
        );
      },
    },
  };
}
