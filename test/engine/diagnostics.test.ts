/**
 * The diagnostics_channel events of src/diagnostics.ts, through a real engine (a sandbox worker
 * process, the bridge back here): render start, end and error with tenant, template, request id,
 * memory class, CPU and wall time, error code; each host call with its plugin and code; each log
 * line with its template and line. No payload carries a variable, an attribute value or output.
 */
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BridgeError,
  createEngine,
  HOST_CALL_CHANNEL,
  RENDER_CHANNEL,
  TEMPLATE_LOG_CHANNEL,
  definePlugin,
  type HostCallEvent,
  type RenderEvent,
  type TemplateLogEvent,
} from '../../src/index.js';
import { testEngine, templateError } from '../support/engine.js';

const CANARY = 'canary-7f3a-do-not-leak';

const echo = definePlugin({
  kind: 'function',
  name: 'obs_echo',
  summary: 'Prints its text; fails with E_BAD_ATTRIBUTE on "fail".',
  attrs: { text: { type: 'string', required: true } },
  examples: [{ template: '{obs_echo text="a"}', output: 'a' }],
  run(attrs) {
    if (attrs.text === 'fail') throw new BridgeError('E_BAD_ATTRIBUTE', 'asked to fail');
    return { output: String(attrs.text), log: [{ level: 'warning', message: 'echoed' }] };
  },
});

const engine = testEngine({
  plugins: [echo],
  limits: { cpuMs: 300 },
  templates: { 'inc.tpl': 'inner\n\n{logger msg1="from the include"}' },
});

type Seen = { kind: string; event: RenderEvent | HostCallEvent | TemplateLogEvent };

/** Subscribes to all three channels for one test; returns what they saw, in order. */
function listen(): Seen[] {
  const seen: Seen[] = [];
  const on = (kind: string) => (event: unknown) =>
    seen.push({ kind, event: structuredClone({ ...(event as object), error: undefined }) as Seen['event'] });
  const render = {
    start: on('render:start'),
    end: on('render:end'),
    asyncStart: on('render:asyncStart'),
    asyncEnd: on('render:asyncEnd'),
    error: on('render:error'),
  };
  const host = {
    start: on('host:start'),
    end: on('host:end'),
    asyncStart: on('host:asyncStart'),
    asyncEnd: on('host:asyncEnd'),
    error: on('host:error'),
  };
  const log = on('log');
  tracingChannel(RENDER_CHANNEL).subscribe(render);
  tracingChannel(HOST_CALL_CHANNEL).subscribe(host);
  subscribe(TEMPLATE_LOG_CHANNEL, log);
  stops.push(() => {
    tracingChannel(RENDER_CHANNEL).unsubscribe(render);
    tracingChannel(HOST_CALL_CHANNEL).unsubscribe(host);
    unsubscribe(TEMPLATE_LOG_CHANNEL, log);
  });
  return seen;
}
const stops: (() => void)[] = [];
afterEach(() => stops.splice(0).forEach((f) => f()));

describe('diagnostics_channel events', () => {
  it('a render: start, then end with memory class, CPU and wall time; each host call and log line', async () => {
    const seen = listen();
    const r = await engine.render(`x{obs_echo text=$t}\n{logger msg1="hello"}{obs_echo text="b"}`, {
      name: 'page.tpl',
      vars: { t: CANARY },
      identity: { tenant: 'shop', requestId: 'req-1' },
    });
    expect(r.output).toContain(CANARY);
    const kinds = seen.map((s) => s.kind);
    expect(kinds[0]).toBe('render:start');
    expect(kinds.at(-1)).toBe('render:asyncEnd');
    expect(kinds).not.toContain('render:error');
    const end = seen.at(-1)!.event as RenderEvent;
    expect(end).toMatchObject({
      tenant: 'shop',
      template: 'page.tpl',
      requestId: 'req-1',
      context: 'web',
      memoryMB: 128,
    });
    expect(end.errorCode).toBeUndefined();
    expect(end.durationMs).toBeGreaterThan(0);
    expect(end.cpuMs).toBeGreaterThan(0);
    expect(end.cpuMs!).toBeLessThanOrEqual(end.durationMs!);

    const calls = seen.filter((s) => s.kind === 'host:asyncEnd').map((s) => s.event as HostCallEvent);
    expect(calls.map((c) => [c.plugin, c.tenant, c.requestId, c.errorCode])).toEqual([
      ['obs_echo', 'shop', 'req-1', undefined],
      ['obs_echo', 'shop', 'req-1', undefined],
    ]);
    for (const c of calls) expect(c.durationMs).toBeGreaterThanOrEqual(0);
    expect(seen.filter((s) => s.kind === 'host:start')).toHaveLength(2);

    const logs = seen.filter((s) => s.kind === 'log').map((s) => s.event as TemplateLogEvent);
    expect(logs).toEqual([
      { tenant: 'shop', requestId: 'req-1', template: 'page.tpl', line: 1, level: 'warning', message: 'echoed' },
      { tenant: 'shop', requestId: 'req-1', template: 'page.tpl', line: 2, level: 'info', message: 'hello' },
      { tenant: 'shop', requestId: 'req-1', template: 'page.tpl', line: 2, level: 'warning', message: 'echoed' },
    ]);
    // The variable's value went into the output and an attribute; no event repeats it.
    expect(JSON.stringify(seen.filter((s) => s.kind !== 'log'))).not.toContain(CANARY);
  });

  it('a failed render: error then asyncEnd, with its code; a compile error has no memory class or CPU time', async () => {
    const seen = listen();
    await templateError(engine.render('{$x|no_such_modifier}', { name: 'bad.tpl', identity: { tenant: 'shop' } }));
    const kinds = seen.map((s) => s.kind);
    expect(kinds).toEqual(['render:start', 'render:end', 'render:error', 'render:asyncStart', 'render:asyncEnd']);
    const end = seen.at(-1)!.event as RenderEvent;
    expect(end).toMatchObject({ tenant: 'shop', template: 'bad.tpl', errorCode: 'E_UNKNOWN_MODIFIER' });
    expect(end.requestId).toMatch(/^[0-9a-f]{16}$/);
    expect(end.memoryMB).toBeUndefined();
    expect(end.cpuMs).toBeUndefined();

    const failed = await templateError(
      engine.render('a\n{obs_echo text="fail"}', {
        name: 'host.tpl',
        identity: { tenant: 'shop', requestId: 'req-2' },
      }),
    );
    expect(failed.code).toBe('E_BAD_ATTRIBUTE');
    const call = seen.find((s) => s.kind === 'host:asyncEnd')!.event;
    expect(call).toMatchObject({
      plugin: 'obs_echo',
      tenant: 'shop',
      requestId: 'req-2',
      errorCode: 'E_BAD_ATTRIBUTE',
    });
    expect(seen.at(-1)!.event).toMatchObject({ template: 'host.tpl', errorCode: 'E_BAD_ATTRIBUTE', memoryMB: 128 });
    expect((seen.at(-1)!.event as RenderEvent).cpuMs).toBeGreaterThan(0);

    const err = await templateError(
      engine.render('{section name=i loop=2000000000}{/section}', { name: 'slow.tpl', identity: { tenant: 'slow' } }),
    );
    expect(err.code).toBe('E_CPU_TIMEOUT');
    expect(seen.at(-1)!.event).toMatchObject({ template: 'slow.tpl', errorCode: 'E_CPU_TIMEOUT', memoryMB: 128 });
  });

  it('the error event carries the TemplateError the caller gets', async () => {
    let error: unknown;
    const handlers = {
      start() {},
      end() {},
      asyncStart() {},
      asyncEnd() {},
      error: (e: { error: unknown }) => (error = e.error),
    };
    tracingChannel(RENDER_CHANNEL).subscribe(handlers);
    stops.push(() => tracingChannel(RENDER_CHANNEL).unsubscribe(handlers));
    const thrown = await templateError(engine.render('{$x|no_such_modifier}'));
    expect(error).toBe(thrown);
  });

  it('a line logged in an {include}d template names that template and its line', async () => {
    const seen = listen();
    await engine.render('a\n{include file="inc.tpl"}', {
      name: 'outer.tpl',
      identity: { tenant: 'inc', requestId: 'req-inc' },
    });
    expect(seen.filter((s) => s.kind === 'log').map((s) => s.event)).toEqual([
      { tenant: 'inc', requestId: 'req-inc', template: 'inc.tpl', line: 3, level: 'info', message: 'from the include' },
    ]);
  });

  it('stats(): the worker, the tenant isolates it holds, nothing queued once renders ended', async () => {
    await engine.render('a', { identity: { tenant: 'stats-a' } });
    await engine.render('b', { identity: { tenant: 'stats-b' } });
    await new Promise((r) => setTimeout(r, 50));
    const s = engine.stats();
    expect(s.workers).toBe(1);
    expect(s.isolates).toBeGreaterThanOrEqual(2);
    expect(s).toMatchObject({ queued: 0, running: 0, crashes: 0 });
    expect(s.evicted).toBeGreaterThanOrEqual(0);
  });

  it('stats() with workers: 0: the isolates of this process, no workers', async () => {
    const local = createEngine({ workers: 0 });
    try {
      await local.render('x', { identity: { tenant: 'here' } });
      expect(local.stats()).toEqual({ workers: 0, isolates: 1, evicted: 0, queued: 0, running: 0, crashes: 0 });
    } finally {
      await local.close();
    }
  });

  it('nobody listening: no event object is made, and renders answer as before', async () => {
    expect(tracingChannel(RENDER_CHANNEL).hasSubscribers).toBe(false);
    const r = await engine.render('{obs_echo text="a"}{logger msg1="b"}');
    expect(r.output).toBe('a');
    expect(r.logs).toEqual([
      { level: 'warning', message: 'echoed' },
      { level: 'info', message: 'b' },
    ]);
  });
});
