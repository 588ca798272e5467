/**
 * A request from outside to the site's API (`smartcage serve`): `/rcms-api/<api_id>/<path>`.
 * Who it is: the member of its session cookie, or of its X-RCMS-API-ACCESS-TOKEN (a dynamic
 * token of the API, or a session's access token from {assign_api_credential}). What it must
 * carry is the API's security (site.json `apis`): `cookie` a session, `static` a static token of
 * this API, `dynamic` a member's token of this API or a session's access token; otherwise 401.
 * The query is $smarty.get, a JSON or form body $smarty.post. Cookies, the token and
 * Authorization never reach the template ($smarty.server leaves them out). Set-Cookie lines of
 * the response carry the path the site is served under. An endpoint with `cache` may answer from
 * the API cache (cached-answer.ts); its answers say so in X-Cache (hit, miss, skip).
 */
import { randomUUID } from 'node:crypto';
import type { SiteContext } from '../site-context.js';
import type { OutgoingCookie } from '../requests.js';
import { newJar } from '../requests.js';
import { endpointKey, endpointPath, findEndpoint } from './endpoints.js';
import { parseQuery } from './query.js';
import { errorAnswer, headerVar, runEndpoint, type EndpointAnswer } from './run-endpoint.js';
import { SESSION_COOKIE, memberOfAccessToken, memberOfSession } from '../adapters/sessions.js';
import { tokenInfo } from '../adapters/api.js';
import { cacheLookup, keepAnswer } from './cached-answer.js';

export interface ApiHttpRequest {
  method: string;
  /** The path below where the site is served (`/rcms-api/1/news`). */
  path: string;
  /** The query string, without `?`. */
  query: string;
  /** Lower-case names. */
  headers: ReadonlyMap<string, string>;
  body: Uint8Array;
  /** Where the site is served (`/` or `/sites/<key>/`): the Path of its cookies. */
  basePath: string;
  remoteAddress?: string;
}

export interface ApiHttpResponse {
  status: number;
  headers: [string, string][];
  body: string;
}

const ACCESS_TOKEN_HEADER = 'x-rcms-api-access-token';
/** Never given to a template: they are the request's credentials. */
const HIDDEN_HEADERS: ReadonlySet<string> = new Set([
  'cookie',
  ACCESS_TOKEN_HEADER,
  'authorization',
  'proxy-authorization',
]);

/** The Cookie header as name -> value (values URL-decoded where they decode). */
function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const raw = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // A value that is not URL-encoding is kept as sent.
    }
    if (!out.has(name)) out.set(name, value);
  }
  return out;
}

export function setCookieLine(name: string, c: OutgoingCookie, basePath: string): string {
  const parts = [`${name}=${encodeURIComponent(c.value)}`, `Path=${basePath}`, 'SameSite=Lax'];
  if (c.maxAge !== null) parts.push(`Max-Age=${c.maxAge}`);
  if (c.httpOnly) parts.push('HttpOnly');
  return parts.join('; ');
}

type Post = Record<string, unknown> | unknown[];
/** A step of the request: its result, or the answer that ends the request there. */
type Step<T> = { ok: true; value: T } | { ok: false; answer: EndpointAnswer };
const ok = <T>(value: T): Step<T> => ({ ok: true, value });
const stop = (status: number, code: string, message: string): Step<never> => ({
  ok: false,
  answer: errorAnswer(status, code, message),
});

/**
 * Levels a JSON body may nest: PHP's json_decode default, as the engine reads variables
 * (runtime/vars.ts). JSON.parse itself takes far deeper text (5,000 levels in 10 KB), which
 * then overflowed a stack on its way into the render: a 500 RangeError, not the client's 400.
 */
export const MAX_BODY_DEPTH = 512;

/** True when `v` nests deeper than `max` (iterative: the check itself cannot overflow). */
function deeperThan(v: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length > 0) {
    const [x, depth] = stack.pop()!;
    if (typeof x !== 'object' || x === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(x) ? x : Object.values(x))
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

function parseBody(req: ApiHttpRequest): Step<Post> {
  if (req.body.length === 0) return ok({});
  const type = (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const text = Buffer.from(req.body).toString('utf8');
  if (type === 'application/x-www-form-urlencoded') return ok(parseQuery(text));
  if (type !== 'application/json')
    return stop(
      415,
      'unsupported_media_type',
      'send the body as application/json or application/x-www-form-urlencoded',
    );
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return stop(400, 'bad_json', 'the body is not JSON');
  }
  if (typeof v !== 'object' || v === null) return stop(400, 'bad_json', 'the body must be a JSON object or list');
  if (deeperThan(v, MAX_BODY_DEPTH))
    return stop(400, 'body_too_deep', `the body nests deeper than ${MAX_BODY_DEPTH} levels`);
  return ok(v as Post);
}

/** The member the request is (null: nobody), or 401 when it lacks what the API's security asks. */
async function authenticate(
  ctx: SiteContext,
  apiId: number,
  cookies: Map<string, string>,
  token: string | undefined,
): Promise<Step<number | null>> {
  const security = ctx.config.apis.find((a) => a.api_id === apiId)?.security ?? 'none';
  const sessionMember = await memberOfSession(ctx, cookies.get(SESSION_COOKIE));
  const refuse = (what: string) => stop(401, 'unauthorized', `this API needs ${what}`);
  switch (security) {
    case 'none':
      return ok(sessionMember);
    case 'cookie':
      return sessionMember === null ? refuse('a session (log in first)') : ok(sessionMember);
    case 'static': {
      const t = await tokenInfo(ctx, token);
      return t && t.apiId === apiId && t.type === 'static'
        ? ok(sessionMember)
        : refuse('a static access token of this API in X-RCMS-API-ACCESS-TOKEN');
    }
    case 'dynamic': {
      const t = await tokenInfo(ctx, token);
      if (t && t.apiId === apiId && t.type === 'dynamic') return ok(t.memberId);
      const member = await memberOfAccessToken(ctx, token);
      return member === null ? refuse("a member's access token in X-RCMS-API-ACCESS-TOKEN") : ok(member);
    }
  }
}

/** $smarty.server of a request: its headers but the credentials (HTTP_...), then the request line's parts. */
function serverVars(req: ApiHttpRequest): Record<string, string> {
  const server: Record<string, string> = {};
  for (const [name, value] of req.headers) if (!HIDDEN_HEADERS.has(name)) server[headerVar(name)] = value;
  server.REQUEST_METHOD = req.method;
  server.REQUEST_URI = req.query === '' ? req.path : `${req.path}?${req.query}`;
  server.QUERY_STRING = req.query;
  if (req.remoteAddress) server.REMOTE_ADDR = req.remoteAddress;
  return server;
}

const json = (a: EndpointAnswer, extra: [string, string][] = []): ApiHttpResponse => ({
  status: a.status,
  headers: [['content-type', 'application/json; charset=utf-8'], ['cache-control', 'no-store'], ...extra],
  body: a.body,
});

export async function serveApi(ctx: SiteContext, req: ApiHttpRequest): Promise<ApiHttpResponse> {
  const endpoint = findEndpoint(ctx.config, req.path);
  if (!endpoint) return json(errorAnswer(404, 'not_found', `no endpoint ${req.path}`));
  // HEAD is GET without the body (RFC 9110 9.3.2): the same status and headers; the HTTP server
  // leaves the body out.
  const allowed = endpoint.method === 'GET' ? ['GET', 'HEAD'] : [endpoint.method];
  if (!allowed.includes(req.method))
    return json(
      errorAnswer(405, 'method_not_allowed', `${endpointPath(endpoint)} answers ${allowed.join(' and ')} only`),
      [['allow', allowed.join(', ')]],
    );
  const post = endpoint.method === 'POST' ? parseBody(req) : ok<Post>({});
  if (!post.ok) return json(post.answer);
  const cookies = parseCookies(req.headers.get('cookie'));
  const member = await authenticate(ctx, endpoint.api_id, cookies, req.headers.get(ACCESS_TOKEN_HEADER));
  if (!member.ok) return json(member.answer);

  const get = parseQuery(req.query);
  // After the credentials: a kept answer is served only to a request that may have it made.
  const cache = endpoint.cache
    ? await cacheLookup(ctx, { ...endpoint, cache: endpoint.cache }, member.value, get)
    : null;
  if (cache?.hit) return json({ status: 200, body: cache.body }, [['x-cache', 'hit']]);

  const requestId = `http-${randomUUID()}`;
  const state = ctx.requests.begin(requestId, { jar: newJar(cookies), serving: [endpointKey(endpoint)] });
  try {
    const answer = await runEndpoint(ctx, endpoint, {
      requestId,
      memberId: member.value,
      depth: 0,
      get,
      post: post.value,
      server: serverVars(req),
    });
    const setCookies = [...state.jar.outgoing].map(([name, c]): [string, string] => [
      'set-cookie',
      setCookieLine(name, c, req.basePath),
    ]);
    if (cache) return json(answer, [...setCookies, ['x-cache', keepAnswer(ctx, cache, answer, setCookies.length > 0)]]);
    return json(answer, setCookies);
  } finally {
    ctx.requests.end(requestId);
  }
}
