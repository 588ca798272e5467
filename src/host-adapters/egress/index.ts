/**
 * The egress guard: the one path every outbound HTTP request of the host takes (docs/security.md
 * NET-01..11, design rule 8). Decisions, in one place:
 *
 * - Parser: WHATWG `URL` only, the same parsed object is checked and requested. Raw input with
 *   whitespace, C0/C1 controls or a backslash is refused (E_BAD_URL) instead of normalized.
 * - Schemes http/https; port allow-list; any userinfo (even an empty `@`) refused; `localhost`
 *   and `*.localhost` refused without DNS; literal IPs must be global unicast (ip-class.ts).
 * - Names: resolved once per new connection, inside the undici connector, with the injected
 *   resolver. If ANY answer is not public the name is refused (a public+private name never
 *   works, whatever order). The connector then opens TCP itself to a validated IP (answers in
 *   resolver order, the next only if one cannot connect), with a `lookup` that refuses, so
 *   nothing re-resolves; `remoteAddress` is checked before any byte is written; TLS (SNI and
 *   certificate checked against the name) is layered on that socket. No pre-check lookup in
 *   `fetch`, so there is no check-then-use pair for DNS rebinding to split.
 * - Redirects: undici follows none (no redirect interceptor); the guard follows 301/302/303/307/308 itself, each
 *   hop through `check` and the connector again; at most `maxRedirects` (E_HTTP_LIMIT past it);
 *   https->http refused (E_SSRF_DENIED); Authorization/Cookie/Proxy-Authorization dropped for
 *   good after the first cross-origin hop; 303 (not HEAD) and 301/302 of POST become body-less
 *   GET without content-* headers. A request that carries a secret (`secretHeaders`,
 *   `secretBody`) follows same-origin hops only: a 3xx to another origin (or with a Location
 *   that does not parse) is the response, not followed.
 * - Request headers: RFC 7230 token names, values of visible Latin-1/SP/HTAB only; framing,
 *   hop-by-hop and routing headers (Host, Content-Length, Transfer-Encoding, Connection,
 *   Upgrade, TE, Trailer, Keep-Alive, Expect, Proxy-*) refused; at most 100 headers and
 *   `maxHeaderBytes`. Methods: GET HEAD POST PUT PATCH DELETE OPTIONS PURGE (others E_BAD_HEADER).
 * - Responses: header bytes capped by llhttp (`maxHeaderSize`); body streamed and counted after
 *   gzip/deflate/br decoding (at most two nested codings); unknown codings returned as sent.
 * - Time: one deadline per request including redirects and DNS (`timeoutMs`, a request may ask
 *   for less, never more); the caller's AbortSignal honoured (E_HTTP_FAILED "aborted").
 * - mTLS (`tls`: client certificate and key, and/or the CA the server's certificate must chain
 *   to): https only, on an Agent made for that one request and destroyed after it (no pooled
 *   connection carries a certificate to another request), same-origin redirects only.
 * - Never the global fetch, never an environment proxy: one undici Agent per guard (plus one per
 *   mTLS request).
 */
export { EgressError } from './errors.js';
export { DEFAULT_EGRESS_POLICY } from './policy.js';
export { type Resolver } from './resolver.js';
export { isPublicAddress } from './ip-class.js';
export { EgressGuard, type EgressRequest, type EgressResponse } from './guard.js';
