/** Request method and header validation (NET-10): nothing a tenant sets can reframe the request. */
import { EgressError } from './errors.js';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Field values: visible Latin-1 and SP/HTAB only (no CR, LF, NUL or other controls). */

const BAD_VALUE = /[\u0000-\u0008\u000a-\u001f\u007f]|[^\u0000-\u00ff]/;

/** Headers the guard owns: framing, hop-by-hop, routing. */
const FORBIDDEN = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  'expect',
  'http2-settings',
]);

/** PURGE: the cache invalidation method of CDNs and caching proxies ({api}, {purge_cdn_cache}). */
const ALLOWED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PURGE']);

const MAX_HEADER_COUNT = 100;

export function checkMethod(method: unknown): string {
  if (typeof method !== 'string' || !TOKEN.test(method)) throw new EgressError('E_BAD_HEADER', 'invalid HTTP method');
  const m = method.toUpperCase();
  if (!ALLOWED_METHODS.has(m)) throw new EgressError('E_BAD_HEADER', `HTTP method not allowed: ${m.slice(0, 32)}`);
  return m;
}

/** Validates and copies caller headers; names are lowercased. */
export function checkHeaders(headers: unknown, maxBytes: number): [string, string][] {
  if (headers === undefined || headers === null) return [];
  if (!Array.isArray(headers)) throw new EgressError('E_BAD_HEADER', 'headers must be a list of [name, value] pairs');
  if (headers.length > MAX_HEADER_COUNT) throw new EgressError('E_BAD_HEADER', 'too many request headers');
  const out: [string, string][] = [];
  let bytes = 0;
  for (const pair of headers as unknown[]) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') {
      throw new EgressError('E_BAD_HEADER', 'headers must be a list of [name, value] pairs');
    }
    const [name, value] = pair as [string, string];
    if (!TOKEN.test(name))
      throw new EgressError('E_BAD_HEADER', `invalid header name: ${JSON.stringify(name.slice(0, 64))}`);
    const lower = name.toLowerCase();
    if (FORBIDDEN.has(lower) || lower.startsWith('proxy-')) {
      throw new EgressError('E_BAD_HEADER', `header not allowed: ${lower}`);
    }
    if (BAD_VALUE.test(value)) throw new EgressError('E_BAD_HEADER', `invalid value for header ${lower}`);
    bytes += name.length + value.length + 4;
    if (bytes > maxBytes) throw new EgressError('E_BAD_HEADER', 'request headers too large');
    // Leading/trailing whitespace is not part of a field value.
    out.push([lower, value.replace(/^[ \t]+|[ \t]+$/g, '')]);
  }
  return out;
}

/** Dropped when a redirect leaves the origin (fetch spec plus Proxy-Authorization). */
export const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

/** Dropped when a redirect turns the request into a body-less GET. */
export const BODY_HEADERS = new Set(['content-type', 'content-encoding', 'content-language', 'content-location']);
