/**
 * {api}: an external HTTP request through the host's egress guard (HostAdapters.http).
 *
 * Order of checks: capability, endpoint (no secret handle may appear in it; it must parse), body
 * combinations, mTLS secret names (mtls.ts: host rule, https, PEM checks), headers/body with secret handles substituted only for secrets whose
 * `hosts` list the endpoint's origin (https unless the entry says http://; NET-15, BR-06), no
 * handle in query or queries (HH-03), timeout clamped to the render's wall time, cache
 * (GET/HEAD, per tenant: NET-13), request cap (NET-12), then the guard. A request that carries
 * a secret follows same-origin redirects only (the guard answers the 3xx itself otherwise), and
 * whatever comes back is cleared of the render's secret values by the bridge (secret-redactor.ts).
 * `files` (upload.ts) makes the body from the tenant's temporary area; `dl_flg` (download.ts)
 * saves a 2xx body there and gives its path in `var`.
 *
 * Guard refusals (E_SSRF_DENIED, E_BAD_URL, E_BAD_HEADER) and limit breaches (E_HTTP_LIMIT) are
 * errors; a request that fails on the way (E_HTTP_FAILED, E_HTTP_TIMEOUT) sets status_var=0 and
 * http_code_var=0 (spec, Errors) and logs a warning. Messages name the endpoint as the template
 * wrote it (handles, never values), never a resolved address.
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import type { SecretRecord } from '../../host-api/host.js';
import { PhpArray, type Value } from '../../value/value.js';
import { fromBytes } from '../../value/bytes.js';
import { wireBytes } from '../wire-bytes.js';
import { decodeBoundedJson } from '../decoded-values.js';
import { ResponseCache } from '../response-cache.js';
import {
  appendQuery,
  buildQuery,
  chargeRequest,
  failureReason,
  hostAllows,
  keysContain,
  mapStrings,
  parseHeaderList,
  refuseLongQueries,
} from './common.js';
import { clientTls } from './mtls.js';
import { uploadBody } from './upload.js';
import { saveDownload } from './download.js';
import { missingAdapter } from '../../host-api/capabilities.js';
import declaration from '../../plugins/host-api/api.js';

function quote(s: string): string {
  const t = s.length > 120 ? `${s.slice(0, 120)}...` : s;
  return JSON.stringify(t);
}

/** A header value as the wire sees it: UTF-8 bytes, one char per byte (the guard wants Latin-1). */
function wireValue(v: string): string {
  return wireBytes(v).toString('latin1');
}

function headersValue(pairs: readonly [string, string][]): PhpArray {
  const out = PhpArray.empty();
  for (const [name, value] of pairs) {
    const v = fromBytes(Buffer.from(value, 'latin1'));
    const prev = out.has(name) ? out.get(name) : undefined;
    if (prev === undefined) out.set(name, v);
    else if (prev instanceof PhpArray) prev.push(v);
    else out.set(name, PhpArray.fromList([prev, v]));
  }
  return out;
}

export const api = implement(declaration, async (attrs, call, http) => {
  const method = String(attrs.method ?? 'GET');
  const download = attrs.dl_flg === true;
  if (download && !call.host.files) throw missingAdapter('{api} dl_flg', 'files');
  if (download && typeof attrs.json_var === 'string')
    throw new BridgeError(
      'E_BAD_COMBINATION',
      '{api} with dl_flg saves the body to a file: var receives its path, json_var is not set',
    );

  const endpoint = String(attrs.endpoint);
  const shown = quote(endpoint);
  // A handle in the endpoint is never substituted: its host would decide its own permission.
  call.secrets.substitute(endpoint, 'the api endpoint (use headers, query or body)', () => false);
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new BridgeError('E_BAD_URL', `{api} endpoint is not a URL: ${shown}`);
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, '');

  const jsonBody = typeof attrs.json_body === 'string' ? attrs.json_body : undefined;
  const rawBody = typeof attrs.body === 'string' ? attrs.body : undefined;
  if (jsonBody !== undefined && rawBody !== undefined)
    throw new BridgeError('E_BAD_COMBINATION', '{api} takes json_body or body, not both');
  const bodyText = jsonBody ?? rawBody;
  if (bodyText !== undefined && (method === 'GET' || method === 'HEAD'))
    throw new BridgeError('E_BAD_COMBINATION', `{api} a ${method} request cannot have a body`);
  const withFiles = attrs.files instanceof PhpArray && attrs.files.size > 0;
  if (withFiles && bodyText !== undefined)
    throw new BridgeError('E_BAD_COMBINATION', '{api} takes files or a body (json_body, body), not both');

  const tls = await clientTls(attrs, call, url);

  const allowed = (r: SecretRecord): boolean => hostAllows(r, url);
  const use = `a request to ${url.protocol}//${host}`;
  const sub = (s: string): string => call.secrets.substitute(s, use, allowed);

  // Headers: handles are allowed in values only, never in names.
  const headers: [string, string][] = [];
  const secretHeaders: string[] = [];
  for (const [name, value] of parseHeaderList('api', attrs.headers)) {
    call.secrets.substitute(name, 'a header name', () => false);
    const sent = sub(value);
    if (sent !== value) secretHeaders.push(name);
    headers.push([name, wireValue(sent)]);
  }
  const typed = headers.some(([n]) => n.toLowerCase() === 'content-type');
  if (jsonBody !== undefined && !typed) headers.push(['Content-Type', 'application/json']);
  const upload = withFiles ? await uploadBody(attrs.files ?? null, method, call) : undefined;
  if (upload && method !== 'PUT' && typed)
    throw new BridgeError(
      'E_BAD_COMBINATION',
      '{api} files are sent as multipart/form-data: leave the Content-Type header out',
    );
  if (upload && !typed) headers.push(['Content-Type', upload.contentType]);

  // Never in the URL: servers log it, echo it and pass it on in redirects; headers or the body only.
  const queries = attrs.queries ?? null;
  refuseLongQueries('api', queries);
  const inQuery = (s: string): string =>
    call.secrets.substitute(s, 'a query string (use a header or the body)', () => false);
  if (keysContain(queries, (k) => call.secrets.contains(k)))
    throw new BridgeError('E_SECRET_DENIED', '{api} a secret may not be used as a query key');
  const query = buildQuery(typeof attrs.query === 'string' ? inQuery(attrs.query) : null, mapStrings(queries, inQuery));
  const target = appendQuery(endpoint, query);
  const bodySent = bodyText === undefined ? undefined : sub(bodyText);
  const body = upload ? upload.body : bodySent === undefined ? undefined : wireBytes(bodySent);
  // Secrets go only to the origin their record allows, which was checked for this URL: the
  // guard follows no redirect that leaves it (it answers the 3xx instead).
  const secretBody = bodySent !== undefined && bodySent !== bodyText;
  // A slice of an echo would hand the secret back in pieces too short to recognise.
  if ((secretHeaders.length > 0 || secretBody) && headers.some(([n]) => /^(if-)?range$/i.test(n))) {
    throw new BridgeError('E_SECRET_DENIED', '{api} a request that carries a secret may not ask for a byte range');
  }

  const left = call.timeLeft();
  if (left <= 50) throw new BridgeError('E_WALL_TIMEOUT', '{api} no time left in the render for a request');
  const timeoutMs = Math.min(Number(attrs.timeout ?? 30) * 1000, left - 50);

  const cacheMinutes = typeof attrs.cache_time === 'number' ? attrs.cache_time : 0;
  const cacheable = cacheMinutes > 0 && (method === 'GET' || method === 'HEAD');
  // The mTLS secret names are part of the key: an answer to one client certificate is not another's.
  const tlsNames = tls ? [attrs.sslcert, attrs.sslkey, attrs.cainfo].map((v) => (typeof v === 'string' ? v : '')) : [];
  const key = cacheable
    ? ResponseCache.key(call.identity.tenant, [
        method,
        target,
        [...headers].map(([n, v]) => [n.toLowerCase(), v]).sort(),
        tlsNames,
      ])
    : '';
  let res = cacheable ? call.state.apiCache.get(call.identity.tenant, key)?.res : undefined;

  if (!res) {
    chargeRequest(call, 'api');
    try {
      res = await http.fetch({
        method,
        url: target,
        headers,
        ...(body ? { body } : {}),
        ...(tls ? { tls } : {}),
        timeoutMs,
        secretHeaders,
        secretBody,
      });
    } catch (e) {
      const reason = failureReason(e, 'api', shown);
      const assign: [string, Value][] = [];
      if (typeof attrs.status_var === 'string') assign.push([attrs.status_var, 0]);
      if (typeof attrs.http_code_var === 'string') assign.push([attrs.http_code_var, 0]);
      return { assign, log: [{ level: 'warning', message: `{api} ${reason}${tls ? ' (mTLS)' : ''}: ${shown}` }] };
    }
    if (cacheable && res.status >= 200 && res.status < 300)
      call.state.apiCache.set(call.identity.tenant, key, { bytes: res.body.length + 512, res }, cacheMinutes * 60_000);
  }

  const ok = res.status >= 200 && res.status < 300;
  const saved = download && ok ? await saveDownload(res.body, res.url, call) : undefined;
  const text = download ? (saved ?? '') : fromBytes(res.body);
  const assign: [string, Value][] = [];
  if (typeof attrs.var === 'string') assign.push([attrs.var, text]);
  if (typeof attrs.json_var === 'string') {
    // Bounded before it is decoded on this thread (D340, MEM-16).
    const decoded = decodeBoundedJson(text, '{api} json_var: the answer');
    assign.push([attrs.json_var, decoded === null && text.trim() !== 'null' ? text : decoded]);
  }
  if (typeof attrs.resp_header_var === 'string') assign.push([attrs.resp_header_var, headersValue(res.headers)]);
  if (typeof attrs.http_code_var === 'string') assign.push([attrs.http_code_var, res.status]);
  if (typeof attrs.status_var === 'string')
    assign.push([attrs.status_var, res.status >= 200 && res.status < 400 ? 1 : 0]);
  // Spec, api rule 4: connection results of mTLS go to the API log.
  return tls
    ? { assign, log: [{ level: 'info', message: `{api} mTLS request answered ${res.status}: ${shown}` }] }
    : { assign };
});
