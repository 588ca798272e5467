/**
 * What `smartcage serve` reports of itself (docs/observability.md): it wraps the app's request
 * handler (an access-log line per request, the request id, the request metrics), answers
 * `/metrics` on the serving port unless the metrics have a port of their own, and listens to the
 * engine's diagnostics channels the way any embedder can (src/diagnostics.ts): renders feed the
 * request's record and the render metrics, template log lines go to the same log labelled with
 * their site and template line.
 *
 * Only the server's own sites count: another server in the same process hears the same channels.
 */
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import {
  RENDER_CHANNEL,
  TEMPLATE_LOG_CHANNEL,
  TemplateError,
  type RenderEvent,
  type TemplateLogEvent,
} from '../../index.js';
import { currentRequest, pathOf, withRequestRecord, type RequestRecord } from './access-log.js';
import { oneLine } from './logging.js';
import { remoteAddressOf, type RelayedRequest } from './reroute.js';
import type { ServerMetrics } from './metrics.js';
import { guarded } from '../../http/handler.js';
import { send, sendText } from '../../http/send.js';
import { boundPort } from '../../http/port.js';

const METRICS_PATH = '/metrics';

/** The metrics port could not be opened: one line for the operator. */
export class MetricsListenError extends Error {
  constructor(port: number, code: string | undefined) {
    super(
      code === 'EADDRINUSE'
        ? `--metrics-port ${port} is in use`
        : code === 'EACCES'
          ? `--metrics-port ${port} may not be opened by this user`
          : `--metrics-port ${port} cannot be opened (${code ?? 'unknown error'})`,
    );
  }
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface ObserverOptions {
  logger: Logger;
  /** Absent: no metrics. */
  metrics?: ServerMetrics;
  /** `serving` (default): `/metrics` on the server's own port; a number: on its own listener at 127.0.0.1:port (0: a free one). */
  metricsPort?: 'serving' | number;
  /** Whether a tenant is one of this server's sites. */
  isSite(tenant: string): boolean;
}

/**
 * The fields of an access-log line, and nothing else: named scalars, none a field that the log's
 * redaction censors (logging.ts REDACTED_FIELDS; a test compares). So these lines skip pino's
 * redaction, which cost ~26 µs of each request's ~4 µs line (22 paths, wildcards among them).
 */
export const ACCESS_FIELDS = [
  'kind',
  'reqId',
  'site',
  'method',
  'endpoint',
  'status',
  'ms',
  'renders',
  'cpuMs',
  'memoryMB',
  'errorCode',
  'aborted',
  'relayed',
  'remote',
  'error',
] as const;
type AccessLine = { [K in (typeof ACCESS_FIELDS)[number]]?: string | number | boolean | undefined };

export class ServerObserver {
  private readonly renderHandlers = {
    start() {},
    end() {},
    asyncStart() {},
    error() {},
    asyncEnd: (e: RenderEvent) => this.onRender(e),
  };
  private readonly logHandler = (e: unknown) => this.onTemplateLog(e as TemplateLogEvent);
  private metricsServer: Server | null = null;
  /** The access log: the server's logger without its redaction (ACCESS_FIELDS). */
  private readonly access: Logger;

  /** The server's metrics, if it keeps any. */
  get metrics(): ServerMetrics | undefined {
    return this.opts.metrics;
  }

  constructor(private readonly opts: ObserverOptions) {
    this.access = opts.logger.child({}, { redact: [] });
    tracingChannel<unknown, RenderEvent>(RENDER_CHANNEL).subscribe(this.renderHandlers);
    subscribe(TEMPLATE_LOG_CHANNEL, this.logHandler);
  }

  get logger(): Logger {
    return this.opts.logger;
  }

  /** `handle` with the access log, the request id, and `/metrics` in front when it is on this port. */
  wrap(handle: Handler): Handler {
    const { metrics } = this.opts;
    const here = metrics !== undefined && (this.opts.metricsPort ?? 'serving') === 'serving';
    return (req, res) =>
      withRequestRecord(
        req,
        res,
        async () => {
          if (here && pathOnly(req.url) === METRICS_PATH) return serveMetrics(metrics, req, res);
          try {
            await handle(req, res);
          } catch (e) {
            // The app's listener answers 500; the log says why, with the stack: this is our failure, not a template's.
            const r = currentRequest();
            if (r) {
              r.errorCode ??= 'E_INTERNAL';
              r.errorMessage ??= oneLine(e instanceof Error ? e.message : String(e));
            }
            this.opts.logger.error(
              {
                reqId: r?.id,
                err: e instanceof Error ? { type: e.name, message: oneLine(e.message), stack: e.stack } : String(e),
              },
              'request handler failed',
            );
            throw e;
          }
        },
        (r, status, ms, aborted) => this.onRequest(r, status, ms, aborted, req),
      );
  }

  /** Starts the metrics listener of its own port, if asked for; its URL. */
  async listenMetrics(): Promise<string | null> {
    const { metrics, metricsPort } = this.opts;
    if (!metrics || typeof metricsPort !== 'number') return null;
    const server = createServer(
      guarded(async (req, res) => {
        if (pathOnly(req.url) === METRICS_PATH) return serveMetrics(metrics, req, res);
        sendText(res, 404, 'not found: metrics are at /metrics\n');
      }),
    );
    await new Promise<void>((ok, fail) => {
      server.once('error', (e: NodeJS.ErrnoException) => fail(new MetricsListenError(metricsPort, e.code)));
      server.listen(metricsPort, '127.0.0.1', () => ok());
    });
    this.metricsServer = server;
    return `http://127.0.0.1:${boundPort(server)}${METRICS_PATH}`;
  }

  async close(): Promise<void> {
    tracingChannel<unknown, RenderEvent>(RENDER_CHANNEL).unsubscribe(this.renderHandlers);
    unsubscribe(TEMPLATE_LOG_CHANNEL, this.logHandler);
    const s = this.metricsServer;
    this.metricsServer = null;
    if (s)
      await new Promise<void>((ok) => {
        s.closeAllConnections();
        s.close(() => ok());
      });
    this.opts.logger.flush();
  }

  private onRender(e: RenderEvent): void {
    if (!this.opts.isSite(e.tenant)) return;
    this.opts.metrics?.render(e);
    const r = currentRequest();
    if (!r) return;
    r.renders++;
    r.cpuMs += e.cpuMs ?? 0;
    if (e.memoryMB !== undefined) r.memoryMB = Math.max(r.memoryMB ?? 0, e.memoryMB);
    if (e.errorCode && r.errorCode === undefined) {
      r.errorCode = e.errorCode;
      r.errorMessage = errorLine(e);
    }
  }

  private onTemplateLog(e: TemplateLogEvent): void {
    if (!this.opts.isSite(e.tenant)) return;
    const level = e.level === 'info' ? 'info' : e.level === 'warning' ? 'warn' : 'error';
    this.opts.logger[level](
      { kind: 'template', reqId: currentRequest()?.id, site: e.tenant, template: e.template, line: e.line },
      e.message,
    );
  }

  private onRequest(r: RequestRecord, status: number, ms: number, aborted: boolean, req: IncomingMessage): void {
    this.opts.metrics?.request(r.method, status, ms / 1000);
    const line: AccessLine = {
      kind: 'access',
      reqId: r.id,
      site: r.site,
      method: r.method,
      endpoint: r.endpoint,
      status,
      ms: round(ms),
      ...(r.renders > 0 ? { renders: r.renders, cpuMs: round(r.cpuMs), memoryMB: r.memoryMB } : {}),
      ...(r.errorCode ? { errorCode: r.errorCode } : {}),
      ...(aborted ? { aborted: true } : {}),
      remote: remoteAddressOf(req),
    };
    if (status >= 500)
      this.access.error(
        { ...line, ...(r.errorMessage ? { error: r.errorMessage } : {}) } satisfies AccessLine,
        'request',
      );
    // A scrape every 15 s is not news: at debug, like other probes of the server itself.
    else if (r.site === undefined && r.endpoint === METRICS_PATH) this.access.debug(line, 'request');
    else this.access.info(line, 'request');
  }

  /**
   * The line of a request this process passed to its site's owner (reroute.ts, D238), in the
   * access log's shape: `relayed`, the owner's status and request id, the time until the answer
   * ended here; no renders (the owner's line has them). Not in the request metrics: the owner
   * counts it, and a scrape of any child sums every child's.
   */
  relayed(r: RelayedRequest): void {
    const line: AccessLine = {
      kind: 'access',
      reqId: r.reqId,
      site: r.site,
      method: r.req.method ?? 'GET',
      endpoint: pathOf(r.req.url),
      status: r.status,
      ms: round(r.ms),
      ...(r.aborted ? { aborted: true } : {}),
      relayed: true,
      remote: remoteAddressOf(r.req),
    };
    if (r.status !== undefined && r.status >= 500) this.access.error(line, 'request');
    else this.access.info(line, 'request');
  }
}

/**
 * A failed render as the log says it: the template's place, and its message (one line, no frame,
 * no stack) when the compile failed. A message of the render itself may quote values the
 * template computed from the request ({math equation=$smarty.get.q} repeats q): those are logged
 * as their place and code only; the client's answer has the message.
 */
function errorLine(e: RenderEvent): string {
  const t = e.error instanceof TemplateError ? e.error : undefined;
  if (!t) return e.errorCode ?? 'E_INTERNAL';
  const place = `${t.template}${t.line > 0 ? `:${t.line}` : ''}`;
  return e.memoryMB === undefined
    ? oneLine(`${place}: ${t.message}`)
    : `${place}: ${t.code} while rendering (message not logged: it may quote request values)`;
}

async function serveMetrics(metrics: ServerMetrics, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'GET only\n', { allow: 'GET, HEAD' });
  const text = await metrics.text();
  send(res, 200, metrics.contentType, req.method === 'HEAD' ? '' : text);
}

function pathOnly(url: string | undefined): string {
  return (url ?? '/').split('?', 1)[0]!;
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
