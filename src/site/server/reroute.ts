/**
 * Per-request site affinity for `serve --sites --processes N` (docs/decisions.md D238). The primary
 * routes a connection by its first request (affinity.ts); a keep-alive connection that a client
 * shares between sites then brings the child requests for sites another child owns. Served there,
 * each would warm its site in every child (1,207 MB for 1,000 sites / 50 hot with shared
 * connections, against 899 MB with a connection per site). Instead the child passes such a request
 * to the owner: it sends it, on a keep-alive connection of its own for that site, to the primary's
 * port, where the primary routes it by its head as any connection, and relays the answer.
 *
 * - Only GET and HEAD without a body are passed on: one whose passing fails before the owner
 *   answered is then served here, so the client always gets its answer, never a 5xx of the relay.
 *   Serving it again is what a client may do with an idempotent request (RFC 9110 9.2.2); a
 *   DELETE or a POST, even without a body, is served where it arrived, so that a relay that
 *   failed after the owner acted cannot act twice.
 * - The passed request carries `x-smartcage-rerouted: TOKEN ADDRESS`: the primary's random token
 *   (a client cannot forge it) and the client's address, which the owner takes as the request's
 *   (remoteAddressOf). The owner never passes such a request on again, so nothing loops, even
 *   while the children's view of who is up changes.
 * - Each site has its own relay connections (the agent's pool is keyed by the site): a connection
 *   is routed by its first request, so one shared by sites would bring them to one owner.
 * - Until the primary said who is up (and with `--affinity off`, or one process), every site is
 *   served where its request arrives.
 * - A relayed request is logged in both processes: by the owner as any request, and here as a
 *   line of its own (`relayed`), so that the process the client reached says where its request
 *   went. The owner's answer carries the request id it logged under, and this line takes it.
 */
import {
  Agent,
  request,
  type AgentOptions,
  type IncomingMessage,
  type RequestOptions,
  type ServerResponse,
} from 'node:http';
import { bySite, ownerOf, type RouteKey } from './affinity.js';
import { siteOf } from './request-head.js';

export const REROUTED_HEADER = 'x-smartcage-rerouted';
/** How long a relay connection stays open idle. */
const RELAY_IDLE_MS = 4000;

/** Headers of one hop (RFC 9110 7.6.1) that a relay does not pass on. */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** The address the request came from: the client's, for one a sibling passed on (set by acceptRerouted). */
const forwardedFrom = new WeakMap<IncomingMessage, string>();
export function remoteAddressOf(req: IncomingMessage): string | undefined {
  return forwardedFrom.get(req) ?? req.socket.remoteAddress;
}

export interface RerouteOptions {
  /** The primary's token (processes.ts primaryOwners). */
  token: string;
  /** Where the primary listens; `host` as the options name it (0.0.0.0 and :: are reached on loopback). */
  host: string;
  port: number;
  /** The slots up and this child's own, as the primary last said. */
  owner: { readonly slots: readonly number[]; readonly self: number };
  /** What a site is routed by: the primary's own (affinity.ts), or each would pass the other's requests back. */
  routeKey?: RouteKey;
  /** Told once of each request passed to its owner, when its answer ended or was cut (its access line). */
  relayed?: (r: RelayedRequest) => void;
}

/** A request passed to its owner, as the process that passed it saw it. Not told: one served here after all. */
export interface RelayedRequest {
  readonly req: IncomingMessage;
  readonly site: string;
  /** The owner's answer status; undefined when the client went before the owner answered. */
  readonly status: number | undefined;
  /** From the request's arrival here to the answer's end. */
  readonly ms: number;
  /** The answer did not end: the client or the owner went. */
  readonly aborted: boolean;
  /** The id the owner logged the request under (its answer's X-Request-Id). */
  readonly reqId: string | undefined;
}

/** One keep-alive pool per site (`site` is an extra request option the agent reads). */
class SiteAgent extends Agent {
  override getName(options: AgentOptions & { site?: string }): string {
    return `${super.getName(options)}:${options.site ?? ''}`;
  }
}

export interface Rerouter {
  /**
   * A request `listen` got: true when it is passed to its owner (and answered from there), false
   * when it is this process's to serve. A rerouted request is taken as from its client here.
   */
  take(req: IncomingMessage, res: ServerResponse, serveHere: () => void): boolean;
  close(): void;
}

const loopback = (host: string): string =>
  host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;

export function rerouter(opts: RerouteOptions): Rerouter {
  // An idle relay connection is closed before the owner's keep-alive timeout (node:http's 5 s)
  // would close it under a request: node applies the server's hint only below an agent timeout.
  const agent = new SiteAgent({ keepAlive: true, timeout: RELAY_IDLE_MS });
  const host = loopback(opts.host);
  const routeKey = opts.routeKey ?? bySite;
  const owns = (site: string): boolean => {
    const { slots, self } = opts.owner;
    return slots.length < 2 || slots[ownerOf(routeKey(site), slots)] === self;
  };
  return {
    take(req, res, serveHere) {
      const mark = req.headers[REROUTED_HEADER];
      if (mark !== undefined) {
        delete req.headers[REROUTED_HEADER];
        const [token, address] = String(mark).split(' ');
        if (token === opts.token && address) forwardedFrom.set(req, address);
        return false;
      }
      const site = siteOf(req.headers.host, req.url);
      if (site === undefined || owns(site)) return false;
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const length = req.headers['content-length'];
      if ((length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined) return false;
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP.has(k)) headers[k] = v;
      headers[REROUTED_HEADER] = `${opts.token} ${req.socket.remoteAddress ?? ''}`;
      const started = performance.now();
      let answered = false;
      let servedHere = false;
      let reqId: string | undefined;
      const options: RequestOptions & { site: string } = {
        host,
        port: opts.port,
        method: req.method,
        path: req.url,
        headers,
        agent,
        site,
      };
      const out = request(options, (from) => {
        answered = true;
        const id = from.headers['x-request-id'];
        if (typeof id === 'string') reqId = id;
        for (const [k, v] of Object.entries(from.headers)) if (v !== undefined && !HOP.has(k)) res.setHeader(k, v);
        res.writeHead(from.statusCode ?? 502, from.statusMessage);
        from.pipe(res);
        // The owner went mid-answer: the client's connection goes too, as it would with the owner's.
        from.on('close', () => {
          if (!from.complete) res.destroy();
        });
      });
      out.on('error', () => {
        // The client went: nobody to answer.
        if (res.destroyed) return;
        // Not answered: the request is served here (it had no body to lose). Answered: cut.
        if (!answered) {
          servedHere = true;
          serveHere();
        } else res.destroy();
      });
      res.on('close', () => {
        if (!res.writableFinished) out.destroy();
        if (servedHere || opts.relayed === undefined) return;
        const aborted = !res.writableFinished;
        const ms = performance.now() - started;
        opts.relayed({ req, site, status: answered ? res.statusCode : undefined, ms, aborted, reqId });
      });
      out.end();
      return true;
    },
    close: () => agent.destroy(),
  };
}
