/**
 * The HTTP server of `smartcage serve`: the app's handler on the address the options name
 * (--host, --port).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface ServeServer {
  server: Server;
  port: number;
  /** `http://HOST:PORT`, the address line's. */
  url: string;
  /** Stops at once, cutting what is in flight (tests, failed starts); a stop the operator asks for drains (drain.ts). */
  close(): Promise<void>;
}

export interface ListenOptions {
  host: string;
  /** 0: a free port. */
  port: number;
}

/** `http://HOST:PORT`, an IPv6 address in brackets. */
export const urlOf = (host: string, port: number): string => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/** `handle` served on host:port; a handler that throws answers 500, as the forms app's server does. */
export async function listen(handle: Handler, opts: ListenOptions): Promise<ServeServer> {
  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ error: e instanceof Error ? e.message : String(e) }));
      } else res.end();
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port, opts.host, () => {
      server.off('error', fail);
      ok();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: urlOf(opts.host, port),
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
