/**
 * ChromiumBrowser: the BrowserAdapter over a headless Chromium driven by playwright-core (an
 * optional peer dependency, loaded on first use). One browser per adapter, started lazily; each
 * capture gets a fresh context (no cookies, cache or storage shared between captures or tenants)
 * in one of `pages` slots, with at most `queue` captures waiting.
 *
 * The page has no network of its own. Every http(s) request it makes is intercepted
 * (context.route) and answered with what the job's fetch (the egress guard) answers, so the
 * guard's rules hold for the document, each subresource and each redirect hop; what the guard
 * refuses is aborted. WebSockets are closed, service workers blocked, and the browser is started
 * with an unreachable proxy and a resolver that resolves nothing, so a request that would slip
 * past the interception (a prefetch, WebRTC) reaches nothing either.
 *
 * A capture that outlives its deadline has its context closed (which ends its renderer); if that
 * does not finish promptly the whole browser is closed, and the next capture starts a new one.
 */
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { BridgeError } from '../../host-api/errors.js';
import type { BrowserAdapter, CaptureJob } from '../../host-api/adapters/documents.js';
import { Slots } from './slots.js';

export interface ChromiumOptions {
  /** Default /usr/bin/chromium (Debian's package). */
  executablePath?: string;
  /** Captures at once (pages open), default 2. */
  pages?: number;
  /** Captures waiting for a page, default 8; past it E_HOST_BUSY. */
  queue?: number;
}

/** Flags that work as root in a container, and keep the browser off every network of its own. */
const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-domain-reliability',
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** A PDF has at most this many pages (the rest is not printed). */
export const MAX_PDF_PAGES = 50;
/** Requests one capture's page may make; later ones are aborted (the page is captured as it is). */
export const MAX_PAGE_REQUESTS = 300;
/** Response bytes one capture's page may receive in all; past it further requests are aborted. */
export const MAX_PAGE_BYTES = 64 * 1024 * 1024;
/** Request headers the page's requests keep when they go through the guard. */
const FORWARDED_HEADERS = new Set(['accept', 'accept-language', 'content-type', 'cookie', 'referer', 'user-agent']);
/** How long a context may take to close after a timeout before the whole browser is closed. */
const CLOSE_GRACE_MS = 2_000;

export class ChromiumBrowser implements BrowserAdapter {
  private browser: Promise<Browser> | undefined;
  private readonly slots: Slots;
  private readonly executablePath: string;

  constructor(options: ChromiumOptions = {}) {
    this.executablePath = options.executablePath ?? '/usr/bin/chromium';
    this.slots = new Slots(options.pages ?? 2, options.queue ?? 8, '{generate_pdf} browser pages');
  }

  /** Whether a browser is running or starting. */
  get started(): boolean {
    return this.browser !== undefined;
  }

  /** Pages in use and captures waiting. */
  get load(): { running: number; waiting: number } {
    return this.slots.load;
  }

  async capture(job: CaptureJob): Promise<Uint8Array> {
    const deadline = Date.now() + job.timeoutMs;
    return this.slots.run(job.timeoutMs, async () => {
      const browser = await this.start();
      const context = await browser.newContext({
        viewport: { width: job.width, height: job.height },
        ...(job.userAgent !== null ? { userAgent: job.userAgent } : {}),
        serviceWorkers: 'block',
        acceptDownloads: false,
      });
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new BridgeError(
                'E_WALL_TIMEOUT',
                `{generate_pdf} the page did not finish within the render's wall time: ${job.url}`,
              ),
            ),
          Math.max(0, deadline - Date.now()),
        );
        // The render ended: the page is closed now, not at its own deadline (D152).
        onAbort = () =>
          reject(
            new BridgeError(
              'E_BRIDGE_CLOSED',
              `{generate_pdf} the render ended before the page was captured: ${job.url}`,
            ),
          );
        if (job.signal?.aborted) onAbort();
        else job.signal?.addEventListener('abort', onAbort, { once: true });
      });
      try {
        return await Promise.race([this.run(context, job), timedOut]);
      } finally {
        clearTimeout(timer);
        if (onAbort) job.signal?.removeEventListener('abort', onAbort);
        await this.dispose(context);
      }
    });
  }

  async close(): Promise<void> {
    const b = this.browser;
    this.browser = undefined;
    if (b) await (await b.catch(() => null))?.close().catch(() => {});
  }

  private start(): Promise<Browser> {
    if (!this.browser) {
      const launching = import('playwright-core').then(({ chromium }) =>
        chromium.launch({ executablePath: this.executablePath, headless: true, args: [...CHROMIUM_ARGS] }),
      );
      this.browser = launching;
      launching.then(
        (b) =>
          b.on('disconnected', () => {
            if (this.browser === launching) this.browser = undefined;
          }),
        () => {
          if (this.browser === launching) this.browser = undefined;
        },
      );
    }
    return this.browser;
  }

  /** Closes the context; a renderer that does not let go in time takes the browser with it. */
  private async dispose(context: BrowserContext): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const closed = context.close().then(
      () => true,
      () => true,
    );
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_GRACE_MS)));
    const ok = await Promise.race([closed, late]);
    clearTimeout(timer);
    if (!ok) await this.close();
  }

  private async run(context: BrowserContext, job: CaptureJob): Promise<Uint8Array> {
    let documentError: unknown;
    const budget = { requests: 0, bytes: 0 };
    const page = await context.newPage();
    await context.routeWebSocket(/.*/, (ws) =>
      ws.close({ code: 1008, reason: 'WebSockets are not available to generate_pdf' }),
    );
    await context.route('**/*', async (route) => {
      const failure = await answer(route, job, budget);
      if (failure !== null && route.request().isNavigationRequest() && route.request().frame() === page.mainFrame())
        documentError = failure;
    });
    if (job.cookies.length > 0) await context.addCookies(job.cookies.map((c) => ({ ...c, path: '/' })));
    try {
      const res = await page.goto(job.url, { waitUntil: 'load', timeout: 0 });
      if (!res) throw new Error('no response');
    } catch (e) {
      if (documentError instanceof Error && typeof (documentError as { code?: unknown }).code === 'string')
        throw documentError;
      throw new BridgeError(
        'E_HTTP_FAILED',
        `{generate_pdf} the page could not be loaded (${netError(e)}): ${job.url}`,
      );
    }
    if (job.sleepMs > 0) await page.waitForTimeout(job.sleepMs);
    const out = await shoot(context, page, job);
    if (out.length > job.maxBytes)
      throw new BridgeError(
        'E_SIZE_LIMIT',
        `{generate_pdf} the ${job.format} is ${out.length} bytes, over the limit of ${job.maxBytes}`,
      );
    return out;
  }
}

/** Chromium's net error name (net::ERR_...), the one part of its message safe to show. */
function netError(e: unknown): string {
  return (e instanceof Error ? /net::ERR_[A-Z_]+/.exec(e.message)?.[0] : undefined) ?? 'no answer';
}

/** Answers one request of the page through the guard; the guard's error when it refused or failed. */
async function answer(route: Route, job: CaptureJob, budget: { requests: number; bytes: number }): Promise<unknown> {
  const req = route.request();
  try {
    if (++budget.requests > MAX_PAGE_REQUESTS || budget.bytes >= MAX_PAGE_BYTES) {
      throw new BridgeError(
        'E_SIZE_LIMIT',
        `{generate_pdf} the page asked for more than ${MAX_PAGE_REQUESTS} requests or ${MAX_PAGE_BYTES} bytes`,
      );
    }
    const headers = Object.entries(await req.allHeaders()).filter(([n]) => FORWARDED_HEADERS.has(n.toLowerCase()));
    const body = req.postDataBuffer();
    const res = await job.fetch({
      method: req.method(),
      url: req.url(),
      headers,
      ...(body !== null && body.length > 0 ? { body } : {}),
      timeoutMs: job.timeoutMs,
    });
    budget.bytes += res.body.length;
    const out: Record<string, string> = {};
    for (const [n, v] of res.headers) out[n] = n in out ? `${out[n]}\n${v}` : v;
    await route.fulfill({ status: res.status, headers: out, body: Buffer.from(res.body) });
    return null;
  } catch (e) {
    await route.abort('blockedbyclient').catch(() => {});
    return e;
  }
}

async function shoot(context: BrowserContext, page: Page, job: CaptureJob): Promise<Uint8Array> {
  switch (job.format) {
    case 'pdf':
      return page.pdf({ format: 'A4', printBackground: true, pageRanges: `1-${MAX_PDF_PAGES}` });
    case 'png':
    case 'jpeg':
      return page.screenshot({ type: job.format, fullPage: false });
    case 'webp': {
      // Playwright's screenshot knows png and jpeg only; Chromium itself encodes webp.
      const cdp = await context.newCDPSession(page);
      const { data } = await cdp.send('Page.captureScreenshot', { format: 'webp', quality: 90 });
      return Buffer.from(data, 'base64');
    }
  }
}
