// docs/observability.md, runnable: `npm run build && node examples/otel.mjs`.
// smartcage's diagnostics_channel events as OpenTelemetry spans, through @opentelemetry/api alone:
// the engine carries no telemetry dependency; the embedder's tracer provider (an SDK, an exporter)
// decides where spans go. Copy `traceSmartcage` into your host.
import { tracingChannel } from 'node:diagnostics_channel';
import { fileURLToPath } from 'node:url';
import { SpanStatusCode, context, trace } from '@opentelemetry/api';
import { HOST_CALL_CHANNEL, RENDER_CHANNEL } from 'smartcage';

/**
 * Subscribes to the render and host-call channels: a span `smartcage.render` per render (a child
 * of the span active where `engine.render()` was called), and a span `smartcage.host_call` per
 * host call, a child of its render's span. Returns the function that unsubscribes.
 */
export function traceSmartcage(tracer = trace.getTracer('smartcage')) {
  const spans = new WeakMap(); // event object -> span
  // Host calls arrive from a sandbox worker over IPC, outside the render's async context:
  // they find their render by tenant and request id (the latest render of that pair).
  const renders = new Map(); // `${tenant}\0${requestId}` -> [span, ...]
  const key = (e) => `${e.tenant}\0${e.requestId}`;

  const render = {
    start(e) {
      const span = tracer.startSpan(
        'smartcage.render',
        {
          attributes: {
            'smartcage.tenant': e.tenant,
            'smartcage.template': e.template,
            'smartcage.request_id': e.requestId,
            'smartcage.context': e.context,
          },
        },
        context.active(),
      );
      spans.set(e, span);
      const list = renders.get(key(e)) ?? [];
      list.push(span);
      renders.set(key(e), list);
    },
    end() {},
    asyncStart() {},
    error() {},
    asyncEnd(e) {
      const span = spans.get(e);
      if (!span) return;
      if (e.memoryMB !== undefined) span.setAttribute('smartcage.memory_mb', e.memoryMB);
      if (e.cpuMs !== undefined) span.setAttribute('smartcage.cpu_ms', e.cpuMs);
      endSpan(span, e);
      const list = renders.get(key(e)) ?? [];
      list.splice(list.indexOf(span), 1);
      if (list.length === 0) renders.delete(key(e));
    },
  };

  const hostCall = {
    start(e) {
      const parent = renders.get(key(e))?.at(-1);
      const ctx = parent ? trace.setSpan(context.active(), parent) : context.active();
      spans.set(
        e,
        tracer.startSpan(
          'smartcage.host_call',
          {
            attributes: {
              'smartcage.plugin': e.plugin,
              'smartcage.tenant': e.tenant,
              'smartcage.request_id': e.requestId,
            },
          },
          ctx,
        ),
      );
    },
    end() {},
    asyncStart() {},
    error() {},
    asyncEnd(e) {
      const span = spans.get(e);
      if (span) endSpan(span, e);
    },
  };

  tracingChannel(RENDER_CHANNEL).subscribe(render);
  tracingChannel(HOST_CALL_CHANNEL).subscribe(hostCall);
  return () => {
    tracingChannel(RENDER_CHANNEL).unsubscribe(render);
    tracingChannel(HOST_CALL_CHANNEL).unsubscribe(hostCall);
  };
}

/** Ends a render's or a host call's span, marked failed with the error code when it failed. */
function endSpan(span, e) {
  // The code, not the error's message: a template error's message quotes the template.
  if (e.errorCode) {
    span.setAttribute('smartcage.error_code', e.errorCode);
    span.setStatus({ code: SpanStatusCode.ERROR, message: e.errorCode });
  }
  span.end();
}

// Run as a script: a tracer provider that keeps spans in memory, three renders, the spans printed.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } =
    await import('@opentelemetry/sdk-trace-base');
  const { createEngine, definePlugin, BridgeError } = await import('smartcage');
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const stop = traceSmartcage(provider.getTracer('example'));

  const stock = definePlugin({
    kind: 'function',
    name: 'shop_stock',
    summary: 'Prints how many of a product are in stock.',
    attrs: { id: { type: 'int', required: true } },
    examples: [{ template: '{shop_stock id=1}', output: '3' }],
    run(attrs) {
      if (attrs.id !== 1) throw new BridgeError('E_NOT_FOUND', `no product ${attrs.id}`);
      return { output: '3' };
    },
  });
  const engine = createEngine({ plugins: [stock] });
  const identity = { tenant: 'shop-a', requestId: 'req-1' };
  await engine.render('Stock: {shop_stock id=1}', { name: 'stock.tpl', identity });
  await engine
    .render('{shop_stock id=9}', { name: 'missing.tpl', identity: { ...identity, requestId: 'req-2' } })
    .catch(() => {});
  await engine
    .render('{$x|no_such_modifier}', { name: 'broken.tpl', identity: { ...identity, requestId: 'req-3' } })
    .catch(() => {});
  await engine.close();
  stop();

  const spans = exporter.getFinishedSpans();
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  for (const s of spans.sort(
    (a, b) =>
      String(a.attributes['smartcage.request_id']).localeCompare(String(b.attributes['smartcage.request_id'])) ||
      a.name.localeCompare(b.name),
  )) {
    const a = s.attributes;
    const parent = byId.get(s.parentSpanContext?.spanId ?? '');
    const what =
      s.name === 'smartcage.render'
        ? `${a['smartcage.template']} memory ${a['smartcage.memory_mb'] ?? '-'} MB`
        : `${a['smartcage.plugin']} under ${parent?.attributes['smartcage.template'] ?? 'no render'}`;
    const status = s.status.code === 2 ? `ERROR ${s.status.message}` : 'ok';
    console.log(`${a['smartcage.request_id']} ${s.name} ${what}: ${status}`);
  }
}
