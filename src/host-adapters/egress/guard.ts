/**
 * EgressGuard: the one path for every outbound HTTP request of the host (design rule 8).
 *
 *  - `check(url)`: WHATWG parse, http/https only, no userinfo, allowed ports, literal IPs must
 *    be global unicast. The same parsed URL is what gets requested.
 *  - `fetch(req)`: npm undici (never the global fetch, never an environment proxy) through an
 *    Agent whose connector resolves, validates every answer, pins a validated IP and re-checks
 *    the connected peer (see connector.ts). Redirects are followed here, hop by hop, each hop
 *    re-checked like a new request. Header and body caps, decompression counted, one overall
 *    deadline. Every failure leaves as EgressError with a tenant-safe message.
 */
import { Agent, type Dispatcher } from 'undici';
import { readBody, parseContentEncoding } from './body.js';
import { ConnectorError, createGuardedConnect } from './connector.js';
import { EgressError, egressError, quoteUrl } from './errors.js';
import { BODY_HEADERS, CREDENTIAL_HEADERS, checkHeaders, checkMethod } from './headers.js';
import { resolvePolicy, type EgressPolicy } from './policy.js';
import { systemResolver, type Resolver } from './resolver.js';
import { checkUrl } from './url.js';

export interface EgressRequest {
  method: string;
  url: string;
  headers?: readonly [string, string][];
  body?: string | Uint8Array;
  signal?: AbortSignal;
  /** Deadline for this request, redirects included; capped by the policy's timeoutMs. */
  timeoutMs?: number;
  /** Response body bytes this request accepts (E_HTTP_LIMIT past it); capped by the policy's maxResponseBytes. */
  maxResponseBytes?: number;
  /**
   * Names of headers whose values carry a secret. A request with any (or with `secretBody`)
   * follows redirects within its origin only: a redirect to another origin is not followed but
   * returned as the response (the secret's allowed hosts were checked for the first origin, and
   * a server that reflects the secret into Location would otherwise carry it on in the URL).
   */
  secretHeaders?: readonly string[];
  /** The body carries a secret (see `secretHeaders`). */
  secretBody?: boolean;
  /**
   * mTLS: a client certificate and key to present, and/or the CA that must have issued the
   * server's certificate (instead of the guard's trust store). The request then runs on an Agent
   * of its own, closed when it ends, so the certificate is never offered on a pooled connection
   * of another request; https only; redirects within the origin only, as for `secretHeaders`.
   */
  tls?: ClientTls;
}

/** PEM texts of one mTLS request (EgressRequest.tls). */
export interface ClientTls {
  cert?: string;
  key?: string;
  ca?: string;
}

export interface EgressResponse {
  status: number;
  /** Lowercased names; `content-encoding`/`content-length` removed when the body was decoded. */
  headers: [string, string][];
  body: Uint8Array;
  /** Final URL, after redirects. */
  url: string;
  redirects: number;
}

export interface EgressGuardOptions {
  /** Trusted CA certificates (PEM) instead of Node's bundle. For test servers; not for tenants. */
  ca?: string | Buffer | readonly (string | Buffer)[];
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const DEFAULT_ACCEPT_ENCODING = 'gzip, deflate, br';

/** Undici error codes by what they mean for the tenant. */
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const LIMIT_CODES = new Set(['UND_ERR_HEADERS_OVERFLOW', 'UND_ERR_RES_EXCEEDED_MAX_SIZE']);

function headerPairs(headers: Record<string, string | string[] | undefined>): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.push([name, v]);
  }
  return out;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
}

/** Drops a response body we will not read (redirect bodies, bodies after an error). */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

export class EgressGuard {
  readonly policy: EgressPolicy;
  readonly stats = { connections: 0, denied: 0 };
  private readonly agent: Agent;

  constructor(
    policy?: Partial<EgressPolicy>,
    private readonly resolver: Resolver = systemResolver,
    private readonly options: EgressGuardOptions = {},
  ) {
    this.policy = resolvePolicy(policy);
    this.agent = this.makeAgent(options.ca, undefined);
  }

  /** An Agent whose every connection goes through the guarded connector (one per guard; one per mTLS request). */
  private makeAgent(ca: EgressGuardOptions['ca'], clientCert: { cert: string; key: string } | undefined): Agent {
    return new Agent({
      connect: createGuardedConnect({
        policy: this.policy,
        resolver: this.resolver,
        stats: this.stats,
        ...(ca !== undefined ? { ca } : {}),
        ...(clientCert !== undefined ? { clientCert } : {}),
      }),
      maxHeaderSize: this.policy.maxHeaderBytes,
      headersTimeout: this.policy.timeoutMs,
      bodyTimeout: this.policy.timeoutMs,
      connectTimeout: this.policy.timeoutMs,
      keepAliveTimeout: 4_000,
      allowH2: false,
      connections: 16,
      pipelining: 1,
    });
  }

  /** Synchronous URL check; throws EgressError (E_BAD_URL or E_SSRF_DENIED). */
  check(url: string): URL {
    try {
      return checkUrl(url, this.policy);
    } catch (e) {
      const err = e instanceof EgressError ? e : egressError('E_BAD_URL', url, 'malformed URL');
      if (err.code === 'E_SSRF_DENIED') this.stats.denied++;
      throw err;
    }
  }

  /** Performs one request, following redirects by hand. Rejects only with EgressError. */
  async fetch(req: EgressRequest): Promise<EgressResponse> {
    let current: string = typeof req?.url === 'string' ? req.url : '';
    const deadline = new AbortController();
    let timedOut = false;
    let callerAborted = false;
    const timeoutMs = Math.max(
      1,
      Math.min(
        typeof req?.timeoutMs === 'number' && req.timeoutMs > 0 ? req.timeoutMs : Infinity,
        this.policy.timeoutMs,
      ),
    );
    const timer = setTimeout(() => {
      timedOut = true;
      deadline.abort(new EgressError('E_HTTP_TIMEOUT', 'request timed out'));
    }, timeoutMs);
    const signal = req?.signal;
    const onCallerAbort = (): void => {
      callerAborted = true;
      deadline.abort(new EgressError('E_HTTP_FAILED', 'request aborted'));
    };
    try {
      if (signal?.aborted) throw new EgressError('E_HTTP_FAILED', `request aborted: ${quoteUrl(current)}`);
      signal?.addEventListener('abort', onCallerAbort, { once: true });
      return await this.run(req, deadline.signal, Date.now() + timeoutMs, (u) => (current = u));
    } catch (e) {
      if (timedOut) throw egressError('E_HTTP_TIMEOUT', current, 'request timed out');
      if (callerAborted) throw egressError('E_HTTP_FAILED', current, 'request aborted');
      throw this.toEgressError(e, current);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** Closes pooled connections. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  private toEgressError(e: unknown, url: string): EgressError {
    if (e instanceof ConnectorError) return egressError(e.code, url, e.reason);
    if (e instanceof EgressError) return e;
    const code = (e as { code?: unknown } | null)?.code;
    if (typeof code === 'string') {
      if (TIMEOUT_CODES.has(code)) return egressError('E_HTTP_TIMEOUT', url, 'request timed out');
      if (LIMIT_CODES.has(code)) return egressError('E_HTTP_LIMIT', url, 'response headers too large');
    }
    return egressError('E_HTTP_FAILED', url, 'request failed');
  }

  private async run(
    req: EgressRequest,
    signal: AbortSignal,
    deadlineAt: number,
    setCurrent: (u: string) => void,
  ): Promise<EgressResponse> {
    const method = checkMethod(req.method);
    const headers = checkHeaders(req.headers, this.policy.maxHeaderBytes);
    let body: Buffer | undefined;
    if (req.body !== undefined && req.body !== null) {
      if (typeof req.body === 'string') body = Buffer.from(req.body, 'utf8');
      else if (req.body instanceof Uint8Array)
        body = Buffer.from(req.body); // a copy: the caller cannot change it mid-flight
      else throw egressError('E_BAD_URL', req.url, 'request body must be a string or bytes');
      if (body.length > this.policy.maxRequestBytes)
        throw egressError('E_HTTP_LIMIT', req.url, 'request body too large');
      if (method === 'GET' || method === 'HEAD')
        throw egressError('E_BAD_HEADER', req.url, `${method} request cannot have a body`);
    }
    if (!headers.some(([n]) => n === 'accept-encoding')) headers.push(['accept-encoding', DEFAULT_ACCEPT_ENCODING]);

    const tls = req.tls;
    const carriesSecret = (req.secretHeaders ?? []).length > 0 || req.secretBody === true || tls !== undefined;
    const url = this.check(req.url);
    const go = (agent: Agent): Promise<EgressResponse> =>
      this.hops(
        agent,
        { url, method, headers, body, carriesSecret, wanted: req.maxResponseBytes },
        signal,
        deadlineAt,
        setCurrent,
      );
    if (tls === undefined) return go(this.agent);
    if (url.protocol !== 'https:')
      throw egressError('E_BAD_URL', req.url, 'a client certificate or CA needs an https URL');
    if ((tls.cert === undefined) !== (tls.key === undefined))
      throw egressError('E_BAD_URL', req.url, 'a client certificate needs its key');
    const own = this.makeAgent(
      tls.ca ?? this.options.ca,
      tls.cert !== undefined && tls.key !== undefined ? { cert: tls.cert, key: tls.key } : undefined,
    );
    try {
      return await go(own);
    } finally {
      void own.destroy().catch(() => undefined);
    }
  }

  /** The request and the redirects it is allowed to follow, on `agent`. */
  private async hops(
    agent: Agent,
    first: {
      url: URL;
      method: string;
      headers: [string, string][];
      body: Buffer | undefined;
      carriesSecret: boolean;
      wanted: number | undefined;
    },
    signal: AbortSignal,
    deadlineAt: number,
    setCurrent: (u: string) => void,
  ): Promise<EgressResponse> {
    let { url, method, headers, body } = first;
    const { carriesSecret, wanted } = first;
    for (let redirects = 0; ; redirects++) {
      const remaining = Math.max(1, deadlineAt - Date.now());
      const res: Dispatcher.ResponseData = await agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: method as Dispatcher.HttpMethod,
        headers: headers.flat(),
        body: body ?? null,
        signal,
        headersTimeout: remaining,
        bodyTimeout: remaining,
      });
      const location = single(res.headers['location']);
      if (REDIRECT_STATUSES.has(res.statusCode) && location !== undefined) {
        let next: URL | undefined;
        try {
          next = new URL(location, url);
        } catch {
          next = undefined;
        }
        if (carriesSecret && next?.origin !== url.origin) {
          // Answered as it is: the caller sees the 3xx and its Location, the secret stays here.
          try {
            return await this.finish(res, method, url, redirects, wanted);
          } finally {
            discard(res.body);
          }
        }
        discard(res.body);
        if (redirects >= this.policy.maxRedirects) throw egressError('E_HTTP_LIMIT', url.href, 'too many redirects');
        if (next === undefined) throw egressError('E_BAD_URL', location, 'malformed redirect location');
        setCurrent(next.href);
        next = this.check(next.href);
        if (url.protocol === 'https:' && next.protocol === 'http:') {
          this.stats.denied++;
          throw egressError('E_SSRF_DENIED', next.href, 'redirect from https to http refused');
        }
        const toGet =
          (res.statusCode === 303 && method !== 'HEAD') ||
          ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST');
        if (toGet) {
          method = 'GET';
          body = undefined;
          headers = headers.filter(([n]) => !BODY_HEADERS.has(n));
        }
        if (next.origin !== url.origin) headers = headers.filter(([n]) => !CREDENTIAL_HEADERS.has(n));
        url = next;
        continue;
      }
      try {
        return await this.finish(res, method, url, redirects, wanted);
      } finally {
        discard(res.body);
      }
    }
  }

  private async finish(
    res: Dispatcher.ResponseData,
    method: string,
    url: URL,
    redirects: number,
    wanted: number | undefined,
  ): Promise<EgressResponse> {
    const cap = Math.min(this.policy.maxResponseBytes, typeof wanted === 'number' && wanted >= 0 ? wanted : Infinity);
    const encoding = res.headers['content-encoding'];
    const codings = parseContentEncoding(encoding);
    const decode = codings !== null && codings.length > 0;
    const declared = Number(single(res.headers['content-length']));
    const bodyless = method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304;
    if (!decode && !bodyless && Number.isFinite(declared) && declared > cap)
      throw egressError('E_HTTP_LIMIT', url.href, `response body exceeds ${cap} bytes`);
    let bytes: Buffer;
    try {
      bytes = await readBody(res.body, decode ? codings : [], cap);
    } catch (e) {
      if (e instanceof EgressError) throw egressError(e.code, url.href, e.message);
      throw e;
    }
    let pairs = headerPairs(res.headers);
    if (decode) pairs = pairs.filter(([n]) => n !== 'content-encoding' && n !== 'content-length');
    return {
      status: res.statusCode,
      headers: pairs,
      body: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      url: url.href,
      redirects,
    };
  }
}
