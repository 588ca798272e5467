/**
 * Shared rules of the api family: the per-render request cap, `Name: value` header lists,
 * query building, secret-handle walking over template values, and a small per-tenant cache.
 */
import type { BridgeCall } from '../plugin-contract.js';
import type { SecretRecord } from '../../host-api/host.js';
import { BridgeError } from '../../host-api/errors.js';
import { isErrorCode } from '../../protocol/error-codes.js';
import { PhpArray, PhpObject, type Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { httpBuildQuery } from '../../php/array/query.js';
import { MAX_URL_LENGTH } from '../../host-adapters/egress/url.js';

/** Network requests ({api}, {api_internal}, {api_mng}) per render (NET-12). */
export const MAX_REQUESTS_PER_RENDER = 100;

/** One BridgeCall object lives for one render, so it keys the render's counter. */
const requestsByRender = new WeakMap<BridgeCall, number>();

export function chargeRequest(call: BridgeCall, plugin: string): void {
  const n = (requestsByRender.get(call) ?? 0) + 1;
  if (n > MAX_REQUESTS_PER_RENDER)
    throw new BridgeError('E_QUOTA', `{${plugin}}: more than ${MAX_REQUESTS_PER_RENDER} API requests in one render`);
  requestsByRender.set(call, n);
}

/**
 * A secret's `hosts` entry names an origin it may go to: `api.example.com` and
 * `https://api.example.com` allow https only; `http://api.example.com` allows plain http as
 * well, for the rare API that has no TLS (the value then crosses the network readable, so the
 * record must say so). Names compare exactly, case-insensitively, without a final dot; any port.
 */
export function hostAllows(record: SecretRecord, url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  return (record.hosts ?? []).some((entry) => {
    if (typeof entry !== 'string') return false;
    const m = /^(https?):\/\/([^/]*)\/?$/i.exec(entry);
    const name = (m ? m[2]! : entry).toLowerCase().replace(/\.$/, '');
    const plain = m !== null && m[1]!.toLowerCase() === 'http';
    return name === host && (url.protocol === 'https:' || (plain && url.protocol === 'http:'));
  });
}

/** Codes of the guard that mean "the request was refused or broke a limit": errors, not status 0. */
const REFUSALS = new Set(['E_SSRF_DENIED', 'E_SECRET_DENIED', 'E_BAD_URL', 'E_BAD_HEADER', 'E_HTTP_LIMIT']);

/**
 * What a failed egress request means for a template: a refusal or a limit of the guard is thrown
 * as the template's error (naming the URL as `shown`); any other failure (timeout, connection) is
 * answered as its reason, for status 0 and a warning (spec, Errors).
 */
export function failureReason(e: unknown, plugin: string, shown: string): string {
  const code = (e as { code?: unknown } | null)?.code;
  const reason = e instanceof Error ? e.message.replace(/: ".*"$/s, '') : 'request failed';
  if (isErrorCode(code) && REFUSALS.has(code)) throw new BridgeError(code, `{${plugin}} ${reason}: ${shown}`);
  if (e instanceof BridgeError) throw e;
  return code === 'E_HTTP_TIMEOUT' ? 'request timed out' : reason;
}

/** Applies `f` to every string inside a template value (array values, not keys); returns a copy. */
export function mapStrings(v: Value, f: (s: string) => string): Value {
  if (typeof v === 'string') return f(v);
  if (v instanceof PhpArray) return PhpArray.fromEntries(v.entries().map(([k, x]) => [k, mapStrings(x, f)] as const));
  if (v instanceof PhpObject)
    return PhpArray.fromEntries(Array.from(v.props.entries()).map(([k, x]) => [k, mapStrings(x, f)] as const));
  return v;
}

/** Keys of arrays may hold handles too: they are never substituted, only refused. */
export function keysContain(v: Value, test: (s: string) => boolean): boolean {
  if (v instanceof PhpArray)
    return v.entries().some(([k, x]) => (typeof k === 'string' && test(k)) || keysContain(x, test));
  if (v instanceof PhpObject) return Array.from(v.props.entries()).some(([k, x]) => test(k) || keysContain(x, test));
  return false;
}

/**
 * `headers=` as the spec writes it: a list of `Name: value` strings (keys ignored). Names must
 * be plain tokens; the egress guard re-checks names, values and the forbidden set.
 */
export function parseHeaderList(plugin: string, list: Value): [string, string][] {
  if (list === null || list === undefined) return [];
  if (!(list instanceof PhpArray))
    throw new BridgeError('E_BAD_HEADER', `{${plugin}} headers= must be a list of "Name: value" strings`);
  if (list.size > 100) throw new BridgeError('E_BAD_HEADER', `{${plugin}} has more than 100 headers`);
  const out: [string, string][] = [];
  for (const item of list.values()) {
    if (item instanceof PhpArray || item instanceof PhpObject || item === null || item === undefined) {
      throw new BridgeError('E_BAD_HEADER', `{${plugin}} headers= must be a list of "Name: value" strings`);
    }
    const text = toStr(item);
    const colon = text.indexOf(':');
    if (colon <= 0)
      throw new BridgeError(
        'E_BAD_HEADER',
        `{${plugin}} header without "Name:" (${JSON.stringify(text.slice(0, 40))})`,
      );
    const name = text.slice(0, colon).trim();
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name))
      throw new BridgeError('E_BAD_HEADER', `{${plugin}} invalid header name ${JSON.stringify(name.slice(0, 40))}`);
    out.push([name, text.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '')]);
  }
  return out;
}

/** The most values `queries` can hold in a URL the egress guard takes: each is at least `k=` and a `&`. */
const MAX_QUERY_VALUES = Math.floor((MAX_URL_LENGTH + 1) / 3);

/**
 * Refuses `queries` with more values than any URL can carry (E_BAD_URL, the guard's code for a
 * URL past its cap), counting the values http_build_query writes (a scalar that is not null, at
 * any depth) and stopping past the bound, so nothing of a long list is encoded. The encoding
 * held the embedder's thread ~1 s for the 300,000 values one explode makes (D320, NET-20).
 */
export function refuseLongQueries(plugin: string, queries: Value): void {
  if (!(queries instanceof PhpArray)) return;
  let count = 0;
  const stack: (PhpArray | PhpObject)[] = [queries];
  while (stack.length > 0) {
    const v = stack.pop()!;
    for (const x of v instanceof PhpArray ? v.values() : v.props.values()) {
      if (x instanceof PhpArray || x instanceof PhpObject) stack.push(x);
      else if (x !== null && ++count > MAX_QUERY_VALUES)
        throw new BridgeError(
          'E_BAD_URL',
          `{${plugin}} queries= holds more values than a URL of ${MAX_URL_LENGTH} characters can carry`,
        );
    }
  }
}

/** `query` then `queries` (http_build_query), joined with `&`. */
export function buildQuery(query: Value, queries: Value): string {
  const parts: string[] = [];
  if (typeof query === 'string' && query !== '') parts.push(query.replace(/^[?&]+/, ''));
  if (queries instanceof PhpArray && queries.size > 0) parts.push(httpBuildQuery(queries));
  return parts.filter((p) => p !== '').join('&');
}

/** Endpoint plus query: `?` or `&` as the endpoint needs; a fragment stays last. */
export function appendQuery(endpoint: string, query: string): string {
  if (query === '') return endpoint;
  const hash = endpoint.indexOf('#');
  const base = hash >= 0 ? endpoint.slice(0, hash) : endpoint;
  const frag = hash >= 0 ? endpoint.slice(hash) : '';
  const sep = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${sep}${query}${frag}`;
}
