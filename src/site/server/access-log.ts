/**
 * One access-log line per request of `smartcage serve`, and the request id that names it.
 *
 * A request's record lives in an AsyncLocalStorage for as long as its handler runs: the app adds
 * the site and endpoint it routed to (`annotateRequest`), and the renders the request made add
 * their CPU time, memory class and error code from the engine's `smartcage:render` events
 * (observer.ts), which are published in the async context of the render's caller.
 *
 * The request id: an incoming `X-Request-Id` that is short and plain (a proxy's or a load
 * balancer's) is kept, anything else is replaced by a new UUID; the answer carries it back. It is
 * the log's id only: renders keep their own request ids (src/site/api/serve-api.ts makes one per
 * request), because a client must not choose the key its request's state is kept under.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const REQUEST_ID_HEADER = 'x-request-id';
/** What an incoming request id may be: printable, no spaces or quotes, at most 128 characters. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** What one request did, as its access-log line reports it. */
export interface RequestRecord {
  readonly id: string;
  readonly method: string;
  /** The site's key, once the app routed the request to a site. */
  site?: string;
  /** The path the request named, below its site when it has one (`/rcms-api/1/news`); never the query. */
  endpoint: string;
  /** Renders the request made, and their CPU time together, ms. */
  renders: number;
  cpuMs: number;
  /** The largest memory class among its renders, MB. */
  memoryMB?: number;
  /** The first render error's code and message (one line), or the handler's own failure. */
  errorCode?: string;
  errorMessage?: string;
}

const current = new AsyncLocalStorage<RequestRecord>();

/** The record of the request whose handler is running here, if any. */
export function currentRequest(): RequestRecord | undefined {
  return current.getStore();
}

/** The app says where it routed the request: its site, and the path below the site. */
export function annotateRequest(fields: { site?: string; endpoint?: string }): void {
  const r = current.getStore();
  if (!r) return;
  if (fields.site !== undefined) r.site = fields.site;
  if (fields.endpoint !== undefined) r.endpoint = fields.endpoint;
}

/** The incoming X-Request-Id if it is sane, else a new one. */
function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** The path of a request URL without its query, cut to 200 characters. */
export function pathOf(url: string | undefined): string {
  const raw = (url ?? '/').split('?', 1)[0]!.split('#', 1)[0]!;
  return raw.length > 200 ? `${raw.slice(0, 200)}...` : raw;
}

/** Runs `handle` with a new record in its async context; `done` gets it when the answer ended or the connection closed. */
export function withRequestRecord(
  req: IncomingMessage,
  res: ServerResponse,
  handle: () => Promise<void>,
  done: (r: RequestRecord, status: number, ms: number, aborted: boolean) => void,
): Promise<void> {
  const record: RequestRecord = {
    id: requestIdOf(req),
    method: req.method ?? 'GET',
    endpoint: pathOf(req.url),
    renders: 0,
    cpuMs: 0,
  };
  res.setHeader(REQUEST_ID_HEADER, record.id);
  const started = performance.now();
  let reported = false;
  const report = () => {
    if (reported) return;
    reported = true;
    done(record, res.statusCode, performance.now() - started, !res.writableFinished);
  };
  res.once('finish', report);
  res.once('close', report);
  return current.run(record, handle);
}
