/**
 * What the engine tells an observer, through Node's `diagnostics_channel` (docs/observability.md):
 * a render (TracingChannel `smartcage:render`), each host call of a render (TracingChannel
 * `smartcage:host-call`) and each line a template logged (channel `smartcage:template-log`). An
 * embedder subscribes by name; the engine carries no telemetry dependency, and a tracer such as
 * OpenTelemetry is wired to these by the embedder (examples/otel.mjs).
 *
 * Cost: nothing is built when nobody listens. The engine checks `hasSubscribers` before it makes a
 * payload, and a render's bridge is wrapped only when host calls had a subscriber as it was made.
 *
 * What the payloads never carry: a variable, an attribute value, a secret, a render's output or a
 * host answer. TracingChannel puts a traced function's result on the payload; the functions
 * traced here return nothing for that reason, and hand their result back another way. A render's
 * `error` event carries the TemplateError (its message and frame quote the template), as a
 * TracingChannel error event does; its `errorCode` is the part to count and log.
 *
 * Imports nothing of the project but types, so the host bridge and the engine both publish here.
 */
import { channel, tracingChannel, type TracingChannel } from 'node:diagnostics_channel';
import type { ErrorCode } from './protocol/error-codes.js';
import type { HostCallHandler } from './protocol/host-call.js';
import type { RenderIdentity } from './host-api/host.js';

export const RENDER_CHANNEL = 'smartcage:render';
export const HOST_CALL_CHANNEL = 'smartcage:host-call';
export const TEMPLATE_LOG_CHANNEL = 'smartcage:template-log';

/**
 * One render, from `start` (the call) to `asyncEnd` (its answer or its error). The fields below the
 * line are filled in as the render goes: they are final at `error` and `asyncEnd`.
 */
export interface RenderEvent {
  tenant: string;
  /** The template's name as the render was given it (`RenderOptions.name`, default "template"). */
  template: string;
  /** The render's request id: the embedder's, or one the engine made for this render alone. */
  requestId: string;
  context: RenderIdentity['context'];
  /** The memory class the template was compiled for, MB (absent when the compile failed). */
  memoryMB?: number;
  /** CPU time the template's code used in its isolate, ms (absent when no isolate ran it). */
  cpuMs?: number;
  /** Wall time from the call to its end, compile and waiting for an isolate included, ms. */
  durationMs?: number;
  /** The error's code when the render failed. */
  errorCode?: ErrorCode;
  /** Set by TracingChannel at `error`: the TemplateError the caller gets. */
  error?: unknown;
}

/** One call from a render to a host plugin or host modifier. */
export interface HostCallEvent {
  /** The plugin's name (`fetch_url`), or the host modifier's with `|` before it (`|getCountryFromIP`). */
  plugin: string;
  tenant: string;
  requestId: string;
  /** Wall time on the host, ms (set before `asyncEnd`). */
  durationMs?: number;
  /** The code the call answered the template with, when it failed (a host call never throws). */
  errorCode?: ErrorCode;
}

/** A line a template logged ({logger}, or a host plugin's log line), once its render has ended. */
export interface TemplateLogEvent {
  tenant: string;
  requestId: string;
  /** The template the line was written in (an {include}d one where it was), and its line (0: unknown). */
  template: string;
  line: number;
  level: 'info' | 'warning' | 'error';
  /** As the template wrote it: control characters escaped, cut at 1 KB by {logger}. */
  message: string;
}

export const renderChannel: TracingChannel<unknown, RenderEvent> = tracingChannel(RENDER_CHANNEL);
const hostCallChannel: TracingChannel<unknown, HostCallEvent> = tracingChannel(HOST_CALL_CHANNEL);
const templateLogChannel = channel(TEMPLATE_LOG_CHANNEL);

/** The code an answer of the bridge carries, if it is an error (its JSON begins with it: see bridge.ts). */
const ERROR_ANSWER = /^\{"ok":false,"error":\{"code":"(E_[A-Z0-9_]+)"/;

/** The plugin a host call names (its request is `{"name": ..., ...}`), or a marker for a malformed one. */
function pluginOf(request: unknown): string {
  try {
    const name = (JSON.parse(String(request)) as { name?: unknown }).name;
    return typeof name === 'string' && PLUGIN_NAME.test(name) ? name : '(invalid)';
  } catch {
    return '(invalid)';
  }
}
/** Plugin names are identifiers; anything else the isolate sent is not repeated to observers. */
const PLUGIN_NAME = /^\|?[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * The bridge's handler, traced on `smartcage:host-call` if anyone listens now (a render's bridge
 * lives for that render only). The traced function returns nothing: the answer holds the values.
 */
export function observeHostCalls(handler: HostCallHandler, identity: RenderIdentity): HostCallHandler {
  if (!hostCallChannel.hasSubscribers) return handler;
  return async (kind, request) => {
    const event: HostCallEvent = { plugin: pluginOf(request), tenant: identity.tenant, requestId: identity.requestId };
    let answer = '';
    const started = performance.now();
    await hostCallChannel.tracePromise(async () => {
      answer = await handler(kind, request);
      event.durationMs = performance.now() - started;
      const code = ERROR_ANSWER.exec(answer)?.[1];
      if (code !== undefined) event.errorCode = code as ErrorCode;
    }, event);
    return answer;
  };
}

/** The same for the calls of a render in the synchronous slice (HostCallsNow.call): traced synchronously. */
export function observeHostCallsNow(
  call: (kind: string, request: string) => string,
  identity: RenderIdentity,
): (kind: string, request: string) => string {
  if (!hostCallChannel.hasSubscribers) return call;
  return (kind, request) => {
    const event: HostCallEvent = { plugin: pluginOf(request), tenant: identity.tenant, requestId: identity.requestId };
    let answer = '';
    const started = performance.now();
    hostCallChannel.traceSync(() => {
      answer = call(kind, request);
      event.durationMs = performance.now() - started;
      const code = ERROR_ANSWER.exec(answer)?.[1];
      if (code !== undefined) event.errorCode = code as ErrorCode;
    }, event);
    return answer;
  };
}

/**
 * Runs a render traced on `smartcage:render`. `work` fills in `event` as the render goes (memory
 * class, CPU time); its result is handed back past the channel, never put on the event.
 */
export async function traceRender<T>(event: RenderEvent, work: () => Promise<T>): Promise<T> {
  let result: T | undefined;
  const started = performance.now();
  await renderChannel.tracePromise(async () => {
    try {
      result = await work();
    } catch (e) {
      const code = (e as { code?: unknown } | null)?.code;
      if (typeof code === 'string') event.errorCode = code as ErrorCode;
      throw e;
    } finally {
      event.durationMs = performance.now() - started;
    }
  }, event);
  return result as T;
}

/** A render's log lines on `smartcage:template-log`, if anyone listens; `place(i)` says where line i was written. */
export function publishTemplateLogs(
  logs: readonly { level: string; message: string }[],
  place: (i: number) => { template: string; line: number },
  identity: RenderIdentity,
): void {
  if (!templateLogChannel.hasSubscribers) return;
  logs.forEach((l, i) => {
    const level = l.level === 'warning' || l.level === 'error' ? l.level : 'info';
    templateLogChannel.publish({
      tenant: identity.tenant,
      requestId: identity.requestId,
      ...place(i),
      level,
      message: String(l.message),
    } satisfies TemplateLogEvent);
  });
}
