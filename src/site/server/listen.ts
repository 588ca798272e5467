/**
 * The HTTP server of `smartcage serve`: the app's handler on the address the options name
 * (--host, --port), with the process's own endpoints at the root, ahead of any site's routes
 * (a --site site's own `/healthz` never shadows them):
 *
 * - `/healthz`: 200 while the process runs;
 * - `/readyz`: 200 `{"ready":true}`, or 503 naming the backends that are down, or 503
 *   `{"ready":false,"draining":true}` once a stop began (readiness.ts).
 *
 * And its graceful stop, `drain`: stop accepting, let the requests in flight finish within the
 * deadline (each answered with `connection: close`, idle keep-alive sockets closed at once and as
 * they fall idle), then cut whatever is left. Never `closeAllConnections()` before the deadline:
 * that is what cut a 2-second request with ECONNRESET.
 *
 * Under a primary that routes connections by site (`connections`, D226) the server listens on
 * nothing: each connection comes from the primary with the bytes it already read, and the drain
 * ends when the last of those connections has closed.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { answerFailure, type Handler } from '../../http/handler.js';
import { boundPort } from '../../http/port.js';
import { sendJson } from '../../http/send.js';
import { Readiness } from './readiness.js';
import { startReading } from './request-head.js';
import type { Rerouter } from './reroute.js';

/** How a drain ended: every request finished, or some were cut at the deadline. */
export type DrainResult = 'drained' | 'cut';

export interface ServeServer {
  server: Server;
  port: number;
  /** `http://HOST:PORT`, the address line's. */
  url: string;
  readonly readiness: Readiness;
  /** Stops at once, cutting what is in flight (tests, failed starts, a second signal). */
  close(): Promise<void>;
  /** The operator's stop: not ready, no new connections, in-flight requests get `timeoutMs` to finish. */
  drain(timeoutMs: number): Promise<DrainResult>;
}

export interface ListenOptions {
  host: string;
  /** 0: a free port. */
  port: number;
  /** What /readyz asks; default: no backends (ready until draining). */
  readiness?: Readiness;
  /**
   * Connections from elsewhere instead of a socket of its own (processes.ts primaryConnections):
   * `port` is then the port they were accepted on, for the URL.
   */
  connections?: (accept: (socket: Socket, bytes: Buffer) => void) => void;
  /** With `connections`: a request for a site another process owns is passed to it (reroute.ts, D238). */
  reroute?: Rerouter;
}

/** `http://HOST:PORT`, an IPv6 address in brackets. */
const urlOf = (host: string, port: number): string => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * Serves the connections `connections` gives; resolves once the server was closed and every one
 * of them has. node:http tracks connections (for closeIdleConnections, closeAllConnections and
 * its header and request timeouts) from its 'listening' event on, so that event is emitted here;
 * its 'close' waits only for connections it accepted itself, so these are counted here.
 */
function takeConnections(
  server: Server,
  connections: (accept: (socket: Socket, bytes: Buffer) => void) => void,
): Promise<void> {
  server.emit('listening');
  const open = new Set<Socket>();
  let closing = false;
  let settle: () => void;
  const closed = new Promise<void>((ok) => (settle = ok));
  const settleIfDone = () => {
    if (closing && open.size === 0) settle();
  };
  server.once('close', () => {
    closing = true;
    settleIfDone();
  });
  connections((socket, bytes) => {
    // The primary hands nothing over once it told this process to stop (processes.ts).
    if (closing) return void socket.destroy();
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      settleIfDone();
    });
    socket.unshift(bytes);
    startReading(socket);
    server.emit('connection', socket);
  });
  return closed;
}

/** `handle` served on host:port; a handler that throws answers 500 (src/http/handler.ts). */
export async function listen(handle: Handler, opts: ListenOptions): Promise<ServeServer> {
  const readiness = opts.readiness ?? new Readiness(() => []);
  const inFlight = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      // A keep-alive socket that just fell idle during a drain goes now, not at its keep-alive timeout.
      if (readiness.draining) setImmediate(() => server.closeIdleConnections());
    });
    if (readiness.draining) res.setHeader('connection', 'close');
    const path = (req.url ?? '/').split('?')[0];
    if ((req.method === 'GET' || req.method === 'HEAD') && (path === '/healthz' || path === '/readyz')) {
      if (path === '/healthz') return sendJson(res, 200, { alive: true });
      void readiness.probe().then(
        (r) => sendJson(res, r.ready ? 200 : 503, r),
        () => sendJson(res, 503, { ready: false }),
      );
      return;
    }
    const serve = () => void handle(req, res).catch((e: unknown) => answerFailure(res, e));
    if (!opts.reroute?.take(req, res, serve)) serve();
  });
  let port: number;
  let closed: Promise<void>;
  if (opts.connections) {
    port = opts.port;
    closed = takeConnections(server, opts.connections);
  } else {
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(opts.port, opts.host, () => {
        server.off('error', fail);
        ok();
      });
    });
    port = boundPort(server);
    closed = new Promise<void>((ok) => server.once('close', () => ok()));
  }
  return {
    server,
    port,
    url: urlOf(opts.host, port),
    readiness,
    close: async () => {
      readiness.draining = true;
      opts.reroute?.close();
      server.close();
      server.closeAllConnections();
      await closed;
    },
    drain: async (timeoutMs) => {
      readiness.draining = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
      server.close();
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'cut'>((r) => (timer = setTimeout(() => r('cut'), timeoutMs)));
      const result = await Promise.race([closed.then(() => 'drained' as const), deadline]);
      clearTimeout(timer);
      if (result === 'cut') {
        server.closeAllConnections();
        await closed;
      }
      opts.reroute?.close();
      return result;
    },
  };
}
