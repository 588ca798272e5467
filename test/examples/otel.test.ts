/**
 * examples/otel.mjs: the engine's diagnostics_channel events as OpenTelemetry spans. Run as a
 * user runs it (the built package, imported by name), and imported here with the SDK's
 * InMemorySpanExporter to check the spans: names, attributes, parents, error status, and that no
 * attribute holds a variable's value.
 */
import type { Tracer } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeError, definePlugin, type Engine } from '../../src/index.js';
import { runExample } from '../support/bin.js';
import { testEngine, templateError } from '../support/engine.js';

const CANARY = 'canary-otel-5b1e';

describe('examples/otel.mjs', () => {
  it('runs to the end and prints a span per render and host call, with the failures as ERROR', () => {
    const r = runExample('examples/otel.mjs');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      [
        'req-1 smartcage.host_call shop_stock under stock.tpl: ok',
        'req-1 smartcage.render stock.tpl memory 128 MB: ok',
        'req-2 smartcage.host_call shop_stock under missing.tpl: ERROR E_NOT_FOUND',
        'req-2 smartcage.render missing.tpl memory 128 MB: ERROR E_NOT_FOUND',
        'req-3 smartcage.render broken.tpl memory - MB: ERROR E_UNKNOWN_MODIFIER',
        '',
      ].join('\n'),
    );
  }, 70_000);
});

describe('traceSmartcage with the SDK', () => {
  const exporter = new InMemorySpanExporter();
  let stop: () => void;
  const echo = definePlugin({
    kind: 'function',
    name: 'otel_echo',
    summary: 'Prints its text; "fail" fails with E_NOT_FOUND.',
    attrs: { text: { type: 'string', required: true } },
    examples: [{ template: '{otel_echo text="a"}', output: 'a' }],
    run(attrs) {
      if (attrs.text === 'fail') throw new BridgeError('E_NOT_FOUND', 'asked to fail');
      return { output: String(attrs.text) };
    },
  });
  const engine: Engine = testEngine({ plugins: [echo] });
  beforeAll(async () => {
    // A path in a variable: TypeScript does not look for types of the example (plain JavaScript).
    const example = '../../examples/otel.mjs';
    const { traceSmartcage } = (await import(example)) as { traceSmartcage: (tracer: Tracer) => () => void };
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    stop = traceSmartcage(provider.getTracer('test'));
  });
  afterAll(() => stop());

  const spansOf = (requestId: string): ReadableSpan[] =>
    exporter.getFinishedSpans().filter((s) => s.attributes['smartcage.request_id'] === requestId);

  it('a render: its span with tenant, template, memory class and CPU time; a host call is its child', async () => {
    await engine.render('{otel_echo text=$t}{otel_echo text="b"}', {
      name: 'page.tpl',
      vars: { t: CANARY },
      identity: { tenant: 'shop', requestId: 'r1' },
    });
    const spans = spansOf('r1');
    const render = spans.find((s) => s.name === 'smartcage.render')!;
    expect(render.attributes).toMatchObject({
      'smartcage.tenant': 'shop',
      'smartcage.template': 'page.tpl',
      'smartcage.memory_mb': 128,
      'smartcage.context': 'web',
    });
    expect(render.attributes['smartcage.cpu_ms']).toBeGreaterThan(0);
    expect(render.status.code).toBe(0);
    const calls = spans.filter((s) => s.name === 'smartcage.host_call');
    expect(calls).toHaveLength(2);
    for (const c of calls) {
      expect(c.attributes['smartcage.plugin']).toBe('otel_echo');
      expect(c.parentSpanContext?.spanId).toBe(render.spanContext().spanId);
      expect(c.spanContext().traceId).toBe(render.spanContext().traceId);
    }
    expect(JSON.stringify(spans.map((s) => [s.name, s.attributes, s.status]))).not.toContain(CANARY);
  });

  it('a failed host call and a failed render: status ERROR with the code, as an attribute too', async () => {
    await templateError(
      engine.render('x\n{otel_echo text="fail"}', { name: 'fails.tpl', identity: { tenant: 'shop', requestId: 'r2' } }),
    );
    const spans = spansOf('r2');
    const call = spans.find((s) => s.name === 'smartcage.host_call')!;
    const render = spans.find((s) => s.name === 'smartcage.render')!;
    for (const s of [call, render]) {
      expect(s.status).toEqual({ code: 2, message: 'E_NOT_FOUND' });
      expect(s.attributes['smartcage.error_code']).toBe('E_NOT_FOUND');
    }
    await templateError(
      engine.render('{$x|no_such_modifier}', { name: 'broken.tpl', identity: { tenant: 'shop', requestId: 'r3' } }),
    );
    const [broken] = spansOf('r3');
    expect(broken!.status).toEqual({ code: 2, message: 'E_UNKNOWN_MODIFIER' });
    expect(broken!.attributes['smartcage.memory_mb']).toBeUndefined();
  });
});
