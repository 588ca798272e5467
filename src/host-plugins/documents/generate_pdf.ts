/**
 * {generate_pdf url=... path=files/g/private/x.pdf format=pdf|png|jpeg|jpg|webp ...}: captures a
 * page with the host's browser (HostAdapters.browser) and saves it through the tenant's FileStore.
 *
 * Rules (docs/decisions.md D84-D86):
 *  - url: http or https only; every request of the page (the document, subresources, redirect
 *    hops) goes through HostAdapters.http, the egress guard: what it refuses the page never gets.
 *  - browser_width / browser_height: clamped to the bounds below (defaults 1280 x 800). Images
 *    are the viewport (not the full page); a PDF is A4, at most MAX_PDF_PAGES pages.
 *  - sleep: like {sleep}, clamped to 100..1000 ms and counted against the render's sleep budget;
 *    absent or 0: no wait after the load.
 *  - cookie: a name => value array (as $smarty.cookies) set for `domain`, which must be the URL's
 *    host or a parent domain of it (default: the URL's host), so cookies never go to another site.
 *  - path: under /files/g/private or /files/g/public (plugin-roots.ts); an existing file is
 *    replaced only with overwrite=1, else E_FILE_FAILED before any capture.
 *  - The capture ends at the render's wall time (its page is killed), its output is capped.
 *  - option: its content is not shown in the reference; a non-empty one is E_NOT_IMPLEMENTED.
 *  - callback_batch + data: checked first, queued once the file is saved (callback-batch.ts).
 */
import { implement, type BridgeCall } from '../plugin-contract.js';
import { checkRender } from '../../host-api/render-signal.js';
import { BridgeError } from '../../host-api/errors.js';
import { FileError } from '../../host-adapters/files/errors.js';
import { fileExists } from '../../host-adapters/files/exists.js';
import { missingAdapter } from '../../host-api/capabilities.js';
import { PhpArray, type Value } from '../../value/value.js';
import type { CaptureFormat } from '../../host-api/adapters/documents.js';
import { pathAttr, tenantFiles } from '../files/common.js';
import { callbackOf, queueCallback } from '../callback-batch.js';
import declaration from '../../plugins/host-documents/generate_pdf.js';

const VIEWPORT = {
  width: { min: 320, max: 1920, default: 1280 },
  height: { min: 200, max: 2400, default: 800 },
} as const;
/** {sleep}'s clamp (docs/limits.md). */
const SLEEP_MS = { min: 100, max: 1000 } as const;
/** A capture larger than this is refused. */
export const MAX_CAPTURE_BYTES = 20 * 1024 * 1024;
export const MAX_COOKIES = 50;
export const MAX_COOKIE_BYTES = 4096;
export const MAX_UA_CHARS = 512;
/** Kept back from the render's wall time, so the plugin answers before the render is killed. */
const WALL_MARGIN_MS = 250;

const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// RFC 6265 cookie-octets: no controls, whitespace, DQUOTE, comma, semicolon or backslash.
const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;
const HOST_NAME = /^[a-z0-9.-]+$/;

function clamp(v: Value | undefined, b: { min: number; max: number; default: number }): number {
  if (v === undefined || v === null || v === '') return b.default;
  return Math.min(b.max, Math.max(b.min, Math.trunc(Number(v))));
}

function urlOf(v: Value | undefined): URL {
  let url: URL;
  try {
    url = new URL(String(v));
  } catch {
    throw new BridgeError('E_BAD_URL', `{generate_pdf} url is not a URL: ${JSON.stringify(String(v).slice(0, 200))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new BridgeError('E_BAD_URL', `{generate_pdf} url must be http or https, not ${url.protocol}`);
  return url;
}

function cookieDomain(url: URL, v: Value | undefined): string {
  const host = url.hostname.toLowerCase();
  if (v === undefined || v === null || v === '') return host;
  const d = String(v).toLowerCase().replace(/^\./, '');
  if (!HOST_NAME.test(d) || !(host === d || host.endsWith(`.${d}`))) {
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{generate_pdf} domain must be the url's host ${host} or a parent domain of it`,
    );
  }
  return d;
}

function cookiesOf(v: Value | undefined, domain: string): { name: string; value: string; domain: string }[] {
  if (v === undefined || v === null || v === '') return [];
  if (!(v instanceof PhpArray))
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      '{generate_pdf} cookie must be an array of name => value (as $smarty.cookies)',
    );
  if (v.size > MAX_COOKIES)
    throw new BridgeError(
      'E_SIZE_LIMIT',
      `{generate_pdf} cookie has ${v.size} entries, over the limit of ${MAX_COOKIES}`,
    );
  const out: { name: string; value: string; domain: string }[] = [];
  for (const [k, val] of v.entries()) {
    const name = String(k);
    const value = typeof val === 'string' || typeof val === 'number' ? String(val) : null;
    if (!COOKIE_NAME.test(name) || value === null || !COOKIE_VALUE.test(value)) {
      throw new BridgeError(
        'E_BAD_ATTRIBUTE',
        `{generate_pdf} cookie ${JSON.stringify(name.slice(0, 64))}: names are tokens, values cookie text (no spaces, quotes, commas, semicolons or backslashes)`,
      );
    }
    if (name.length + value.length > MAX_COOKIE_BYTES)
      throw new BridgeError('E_SIZE_LIMIT', `{generate_pdf} cookie ${name} is longer than ${MAX_COOKIE_BYTES} bytes`);
    out.push({ name, value, domain });
  }
  return out;
}

function userAgent(v: Value | undefined): string | null {
  if (v === undefined || v === null || v === '') return null;
  const ua = String(v);
  if (ua.length > MAX_UA_CHARS || /[\x00-\x1f\x7f]/.test(ua))
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{generate_pdf} ua must be one line of at most ${MAX_UA_CHARS} characters`,
    );
  return ua;
}

function sleepOf(v: Value | undefined, call: BridgeCall): number {
  const n = v === undefined || v === null || v === '' ? 0 : Math.trunc(Number(v));
  if (!(n > 0)) return 0;
  const ms = Math.min(SLEEP_MS.max, Math.max(SLEEP_MS.min, n));
  call.chargeSleep(ms);
  return ms;
}

export const generatePdf = implement(declaration, async (attrs, call, browser) => {
  const http = call.host.http;
  if (!http) throw missingAdapter('{generate_pdf}', 'http');
  if (
    attrs.option instanceof PhpArray
      ? attrs.option.size > 0
      : attrs.option !== undefined && attrs.option !== null && attrs.option !== ''
  ) {
    throw new BridgeError(
      'E_NOT_IMPLEMENTED',
      '{generate_pdf} option: the reference does not say what it holds, so this host takes none (leave it empty)',
    );
  }
  const url = urlOf(attrs.url);
  const p = pathAttr('generate_pdf', 'path', attrs);
  const format: CaptureFormat = attrs.format === 'jpg' ? 'jpeg' : ((attrs.format ?? 'pdf') as CaptureFormat);
  const cookies = cookiesOf(attrs.cookie, cookieDomain(url, attrs.domain));
  const ua = userAgent(attrs.ua);
  const callback = callbackOf('generate_pdf', attrs, call);
  const files = tenantFiles(call, 'generate_pdf');
  const overwrite = attrs.overwrite === true || Number(attrs.overwrite) === 1;
  if (!overwrite && (await fileExists(files, p))) {
    throw new FileError('E_FILE_FAILED', p.text, 'the file exists (overwrite=1 replaces it)', {
      plugin: 'generate_pdf',
      attr: 'path',
      reason: 'exists',
    });
  }
  const sleepMs = sleepOf(attrs.sleep, call);
  const data = await browser.capture({
    url: url.href,
    width: clamp(attrs.browser_width, VIEWPORT.width),
    height: clamp(attrs.browser_height, VIEWPORT.height),
    sleepMs,
    userAgent: ua,
    cookies,
    format,
    timeoutMs: Math.max(0, call.timeLeft() - WALL_MARGIN_MS),
    signal: call.signal,
    maxBytes: MAX_CAPTURE_BYTES,
    fetch: (req) => http.fetch(req),
  });
  checkRender(call.signal, '{generate_pdf}');
  await files.writeAtomic(p, data);
  if (callback) await queueCallback('generate_pdf', callback, call, `saved ${p.text}`);
  return {};
});
