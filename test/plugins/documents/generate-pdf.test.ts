/**
 * {generate_pdf} on the real parts: Debian's Chromium through playwright-core, a page served by a
 * real HTTP server on 127.0.0.1 (public for this test's egress guard only), a refused server on
 * 127.0.0.3 that must never be reached, the files written through TenantFiles and read back by
 * poppler. Each rule of the plugin's comment is tried with a value that breaks it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEngine, type Engine } from '../../../src/index.js';
import type { HostAdapters, RenderIdentity } from '../../../src/host-api/host.js';
import type { BatchStart } from '../../../src/host-api/adapters/batches.js';
import { TenantFiles } from '../../../src/host-adapters/files/tenant-files.js';
import { parseVirtualPath } from '../../../src/host-adapters/files/virtual-path.js';
import { jsonEncode } from '../../../src/php/json/encode.js';
import { ChromiumBrowser, MAX_PAGE_REQUESTS } from '../../../src/host-adapters/documents/chromium.js';
import { html, pngSize, readPdf, startServer, testGuard, type TestServer } from './support.js';

let site: TestServer;
let refused: TestServer;
let dir: string;
let files: TenantFiles;
let browser: ChromiumBrowser;
let engine: Engine;
let host: HostAdapters;
const queued: [string, BatchStart][] = [];
const identity: Partial<RenderIdentity> = { tenant: 'shop', context: 'batch' };

function render(src: string, opts: { engine?: Engine } = {}): Promise<string> {
  return (opts.engine ?? engine).render(src, { identity }).then((r) => r.output);
}
const saved = (p: string): Promise<Uint8Array> => files.read(parseVirtualPath(p));

beforeAll(async () => {
  refused = await startServer('127.0.0.3', { '/pixel.png': (_q, res) => res.end('x') });
  site = await startServer('127.0.0.1', {
    '/page.html': (q, res) =>
      html(
        `<h1>Quarterly Report</h1><p>Page one</p><div style="page-break-before: always">Page two</div><img src="${refused.origin}/pixel.png">`,
      )(q, res),
    '/echo.html': (q, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<p style="font: 30px sans-serif">cookie=${q.headers.cookie ?? 'none'}</p>`);
    },
    '/hang.html': html('<script>for (;;) {}</script>'),
    '/hang-after-load.html': html('<p>loaded</p><script>onload = () => setTimeout(() => { for (;;) {} }, 10)</script>'),
    '/many.html': html(Array.from({ length: 400 }, (_, i) => `<img src="/img?n=${i}" width="1" height="1">`).join('')),
    '/img': (_q, res) => res.end('x'),
    '/ws.html': html('<p>ws</p><script>new WebSocket(location.origin.replace("http", "ws") + "/socket")</script>'),
    '/to-refused': (_q, res) => {
      res.statusCode = 302;
      res.setHeader('location', `${refused.origin}/pixel.png`);
      res.end();
    },
  });
  dir = mkdtempSync(path.join(tmpdir(), 'smartcage-pdf-files-'));
  files = new TenantFiles({ rootDir: dir, quotaBytes: 1 << 28, maxReadBytes: 1 << 26, maxEntries: 1000 });
  browser = new ChromiumBrowser({ pages: 2, queue: 2 });
  host = {
    files,
    http: testGuard([site.port, refused.port]),
    browser,
    batches: {
      async enqueue(start) {
        queued.push([identity.tenant!, start]);
        return 'slug' in start.batch && start.batch.slug === 'after-pdf' ? queued.length : null;
      },
    },
  };
  engine = createEngine({ host, workers: 1, limits: { wallMs: 20_000, maxSleepMs: 1_500 } });
}, 60_000);

afterAll(async () => {
  await engine?.close();
  await browser?.close();
  await site?.close();
  await refused?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const url = (p: string): string => `${site.origin}${p}`;

describe('generate_pdf', () => {
  it("saves a PDF of the page that poppler opens, with the page's text, page by page", async () => {
    site.seen.length = 0;
    await render(`{generate_pdf url="${url('/page.html')}" path="files/g/private/report.pdf"}`);
    const pdf = readPdf(await saved('/files/g/private/report.pdf'));
    expect(pdf.rendered).toBe(true);
    expect(pdf.text).toContain('Quarterly Report');
    expect(pdf.pages).toBe(2);
  });

  it('never lets the page reach a host the guard refuses (its subresource is blocked, the page still saved)', async () => {
    await render(`{generate_pdf url="${url('/page.html')}" path="/files/g/public/r.pdf"}`);
    expect(refused.seen).toEqual([]);
  });

  it("refuses a page on a refused host, and a redirect to one, with the guard's code at the line", async () => {
    await expect(
      render(`\n{generate_pdf url="${refused.origin}/pixel.png" path="files/g/private/x.pdf"}`),
    ).rejects.toMatchObject({ code: 'E_SSRF_DENIED', line: 2 });
    await expect(
      render(`{generate_pdf url="${url('/to-refused')}" path="files/g/private/x.pdf"}`),
    ).rejects.toMatchObject({ code: 'E_SSRF_DENIED' });
    expect(refused.seen).toEqual([]);
  });

  it('captures the window as png (clamped sizes), jpeg/jpg and webp', async () => {
    await render(
      `{generate_pdf url="${url('/page.html')}" path="files/g/public/a.png" format="png" browser_width=640 browser_height=480}`,
    );
    expect(pngSize(await saved('/files/g/public/a.png'))).toEqual({ width: 640, height: 480 });
    await render(
      `{generate_pdf url="${url('/page.html')}" path="files/g/public/b.png" format="png" browser_width=99999 browser_height=1}`,
    );
    expect(pngSize(await saved('/files/g/public/b.png'))).toEqual({ width: 1920, height: 200 });
    await render(`{generate_pdf url="${url('/page.html')}" path="files/g/public/c.jpg" format="jpg"}`);
    expect([...(await saved('/files/g/public/c.jpg')).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    await render(`{generate_pdf url="${url('/page.html')}" path="files/g/public/d.webp" format="webp"}`);
    const webp = Buffer.from(await saved('/files/g/public/d.webp'));
    expect([webp.subarray(0, 4).toString('latin1'), webp.subarray(8, 12).toString('latin1')]).toEqual(['RIFF', 'WEBP']);
  });

  it("sends the cookies for the url's host and the user agent; refuses a cookie domain of another site", async () => {
    site.seen.length = 0;
    await render(
      `{assign_array var=c values="abc123" keys="sid"}{generate_pdf url="${url('/echo.html')}" path="files/g/private/echo.pdf" cookie=$c ua="ReportBot/1.0"}`,
    );
    expect(readPdf(await saved('/files/g/private/echo.pdf')).text).toContain('cookie=sid=abc123');
    expect(site.seen.find((s) => s.url === '/echo.html')?.headers['user-agent']).toBe('ReportBot/1.0');
    await expect(
      render(
        `{assign_array var=c values="x" keys="sid"}{generate_pdf url="${url('/echo.html')}" path="files/g/private/e.pdf" cookie=$c domain="example.com"}`,
      ),
    ).rejects.toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    await expect(
      render(
        `{assign_array var=c values="a;b" keys="sid"}{generate_pdf url="${url('/echo.html')}" path="files/g/private/e.pdf" cookie=$c}`,
      ),
    ).rejects.toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
  });

  it('replaces an existing file only with overwrite=1', async () => {
    const src = (extra: string): string =>
      `{generate_pdf url="${url('/page.html')}" path="files/g/private/once.png" format="png" ${extra}}`;
    await render(src('browser_width=400'));
    await expect(render(src('browser_width=500'))).rejects.toMatchObject({ code: 'E_FILE_FAILED' });
    expect(pngSize(await saved('/files/g/private/once.png')).width).toBe(400);
    await render(src('browser_width=500 overwrite=1'));
    expect(pngSize(await saved('/files/g/private/once.png')).width).toBe(500);
  });

  it("kills a page that hangs (before or after its load) at the render's wall time, and the next capture works", async () => {
    const short = createEngine({ host, workers: 1, limits: { wallMs: 4_000 } });
    try {
      await expect(
        render(`{generate_pdf url="${url('/hang.html')}" path="files/g/private/hang.pdf"}`, { engine: short }),
      ).rejects.toMatchObject({ code: 'E_WALL_TIMEOUT' });
      // loaded, then busy for good: the capture itself hangs
      await expect(
        render(`{generate_pdf url="${url('/hang-after-load.html')}" path="files/g/private/hang2.pdf" sleep=100}`, {
          engine: short,
        }),
      ).rejects.toMatchObject({ code: 'E_WALL_TIMEOUT' });
    } finally {
      await short.close();
    }
    // Host work ends with its render (D152): 2 s later neither capture has left a file behind.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await files.exists(parseVirtualPath('/files/g/private/hang.pdf'))).toBe(false);
    expect(await files.exists(parseVirtualPath('/files/g/private/hang2.pdf'))).toBe(false);
    await render(`{generate_pdf url="${url('/page.html')}" path="files/g/private/after-hang.pdf"}`);
    expect(readPdf(await saved('/files/g/private/after-hang.pdf')).rendered).toBe(true);
    // two captures that outlived their renders would hold both of the browser's pages and the capture
    // above would not get one; the test's timeout (about 5x the 12 s this takes) bounds the renders
  }, 60_000);

  it('aborts the requests of a page past its request cap, and still saves the page', async () => {
    site.seen.length = 0;
    await render(`{generate_pdf url="${url('/many.html')}" path="files/g/private/many.pdf"}`);
    expect(site.seen.length).toBeLessThanOrEqual(MAX_PAGE_REQUESTS);
    expect(site.seen.length).toBeGreaterThan(100);
    expect(readPdf(await saved('/files/g/private/many.pdf')).rendered).toBe(true);
  });

  it('refuses WebSockets: the server never sees an upgrade', async () => {
    await render(`{generate_pdf url="${url('/ws.html')}" path="files/g/private/ws.pdf" sleep=300}`);
    expect(site.upgrades).toBe(0);
  });

  it("clamps sleep like {sleep} and counts it against the render's sleep budget", async () => {
    await expect(
      render(
        `{generate_pdf url="${url('/page.html')}" path="files/g/private/s1.pdf" sleep=5000 overwrite=1}{generate_pdf url="${url('/page.html')}" path="files/g/private/s2.pdf" sleep=1000 overwrite=1}`,
      ),
    ).rejects.toMatchObject({ code: 'E_SLEEP_BUDGET' });
  });

  it('queues callback_batch with data once the file is saved; refuses what cannot be queued before any capture', async () => {
    queued.length = 0;
    await render(
      `{assign_array var=d values="7" keys="order"}{generate_pdf url="${url('/page.html')}" path="files/g/private/cb.pdf" callback_batch="after-pdf" data=$d}`,
    );
    expect(queued.map(([t, s]) => [t, s.batch, s.origin, jsonEncode(s.data)])).toEqual([
      ['shop', { slug: 'after-pdf' }, 'generate_pdf', '{"order":"7"}'],
    ]);
    await expect(
      render(`{generate_pdf url="${url('/page.html')}" path="files/g/private/cb2.pdf" callback_batch="no-such"}`),
    ).rejects.toMatchObject({ code: 'E_NOT_FOUND' });
    await expect(
      render(`{generate_pdf url="${url('/page.html')}" path="files/g/private/cb3.pdf" data="x"}`),
    ).rejects.toMatchObject({ code: 'E_BAD_COMBINATION' });
    const noBatches = createEngine({ host: { ...host, batches: undefined }, workers: 1, limits: { wallMs: 20_000 } });
    try {
      await expect(
        render(`{generate_pdf url="${url('/page.html')}" path="files/g/private/cb4.pdf" callback_batch="after-pdf"}`, {
          engine: noBatches,
        }),
      ).rejects.toMatchObject({ code: 'E_HOST_CAPABILITY' });
    } finally {
      await noBatches.close();
    }
    await expect(files.stat(parseVirtualPath('/files/g/private/cb4.pdf'))).rejects.toMatchObject({
      code: 'E_FILE_NOT_FOUND',
    });
  });

  it('refuses bad attributes at their line', async () => {
    const bad: [string, string][] = [
      [`{generate_pdf url="${url('/page.html')}" path="files/g/x.pdf"}`, 'E_PATH_DENIED'],
      [`{generate_pdf url="${url('/page.html')}" path="files/user/x.pdf"}`, 'E_PATH_DENIED'],
      [`{generate_pdf url="${url('/page.html')}" path="files/g/private/../x.pdf"}`, 'E_PATH_DENIED'],
      [`{generate_pdf url="file:///etc/passwd" path="files/g/private/x.pdf"}`, 'E_BAD_URL'],
      [`{generate_pdf url="${url('/page.html')}" path="files/g/private/x.gif" format="gif"}`, 'E_BAD_ATTR'],
      [
        `{assign_array var=o values="1" keys="landscape"}{generate_pdf url="${url('/page.html')}" path="files/g/private/x.pdf" option=$o}`,
        'E_NOT_IMPLEMENTED',
      ],
      [`{generate_pdf url="${url('/page.html')}" path="files/g/private/x.pdf" ua="a\nb"}`, 'E_BAD_ATTRIBUTE'],
      [`{generate_pdf path="files/g/private/x.pdf"}`, 'E_MISSING_ATTR'],
    ];
    for (const [src, code] of bad) await expect(render(`\n\n${src}`), src).rejects.toMatchObject({ code, line: 3 });
  });

  it('bounds the pages: with one page and no queue, a second capture at once is E_HOST_BUSY', async () => {
    const one = new ChromiumBrowser({ pages: 1, queue: 0 });
    const job = {
      url: url('/page.html'),
      width: 400,
      height: 300,
      sleepMs: 0,
      userAgent: null,
      cookies: [],
      format: 'png' as const,
      timeoutMs: 15_000,
      maxBytes: 1 << 24,
      fetch: host.http!.fetch.bind(host.http),
    };
    try {
      const first = one.capture(job);
      await expect(one.capture(job)).rejects.toMatchObject({ code: 'E_HOST_BUSY' });
      expect(pngSize(await first).width).toBe(400);
      await expect(one.capture({ ...job, maxBytes: 100 })).rejects.toMatchObject({ code: 'E_SIZE_LIMIT' });
    } finally {
      await one.close();
    }
  }, 30_000);

  it('is closed when the engine closes, and starts again on the next capture', async () => {
    const own = new ChromiumBrowser();
    const e = createEngine({ host: { ...host, browser: own }, workers: 1, limits: { wallMs: 20_000 } });
    await render(`{generate_pdf url="${url('/page.html')}" path="files/g/private/c1.pdf"}`, { engine: e });
    expect(own.started).toBe(true);
    await e.close();
    await expect.poll(() => own.started).toBe(false);
    await own.close();
  });
});

describe('generate_pdf without a browser', () => {
  it('is E_HOST_CAPABILITY', async () => {
    const e = createEngine({ host: { files }, workers: 0 });
    try {
      await expect(
        e.render('{generate_pdf url="https://example.com/" path="files/g/private/x.pdf"}'),
      ).rejects.toMatchObject({ code: 'E_HOST_CAPABILITY' });
    } finally {
      await e.close();
    }
  });
});
