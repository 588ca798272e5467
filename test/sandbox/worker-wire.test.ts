/**
 * What a sandbox worker sends is untrusted (src/sandbox/worker-protocol.ts `readFromWorker`): each
 * message is rebuilt from the fields it checked, anything else is a WireError, a frame longer than
 * the reader allows is refused before it is gathered, and a worker that sends such a frame is
 * stopped as crashed: its render fails with E_SANDBOX_CRASHED, the embedding process goes on, and
 * a new worker renders the next one; a render waiting for a worker that died before it was ready
 * fails as crashed instead of waiting for good. Vars as JSON text (an embedder's `json` and `plain-json`)
 * travel as the frame's body, lone surrogates included.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { serialize } from 'node:v8';
import { FrameReader, WireError } from '../../src/sandbox/frames.js';
import { readFromWorker, writeToWorker, readToWorker, type ToWorker } from '../../src/sandbox/worker-protocol.js';
import { FrameWriter } from '../../src/sandbox/frames.js';
import type { Socket } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { SandboxPool } from '../../src/sandbox/pool.js';
import { compile } from '../../src/compiler/index.js';
import { renderRequest } from '../../src/sandbox/request.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import type { CompiledTemplate } from '../../src/protocol/render.js';
import type { HostCallHandler } from '../../src/protocol/host-call.js';
import type { RenderVars } from '../../src/protocol/vars.js';

const none = Buffer.alloc(0);

describe('messages from a worker', () => {
  it('are rebuilt from their known fields', () => {
    const m = readFromWorker(
      {
        type: 'result',
        id: 3,
        result: { output: 'in head', warnings: ['w'], warningsAt: [2], cpuMs: 0.5, extra: 'dropped' },
        memory: { heapMB: 5.1, bigIdleMB: 0, rssMB: 60, isolates: 1, evicted: 0, more: 1 },
        stray: true,
      },
      none,
    );
    expect(m).toEqual({
      type: 'result',
      id: 3,
      result: { output: 'in head', warnings: ['w'], warningsAt: [2], cpuMs: 0.5 },
      memory: { heapMB: 5.1, bigIdleMB: 0, rssMB: 60, isolates: 1, evicted: 0 },
    });
    const body = Buffer.from('é output', 'utf8');
    expect(readFromWorker({ type: 'result', id: 1, result: {}, bodyAs: 'utf8' }, body)).toEqual({
      type: 'result',
      id: 1,
      result: { output: 'é output' },
    });
    expect(readFromWorker({ type: 'host', callId: 1, renderId: 2, plugin: 'secrets', request: '{}' }, none)).toEqual({
      type: 'host',
      callId: 1,
      renderId: 2,
      plugin: 'secrets',
      request: '{}',
    });
    expect(
      readFromWorker(
        { type: 'result', id: 1, result: { error: { code: 'E_X', message: 'm', stack: '', at: 4 }, returnValue: [1] } },
        none,
      ).type,
    ).toBe('result');
  });

  const malformed: [string, unknown, Buffer?][] = [
    ['not an object', 'result'],
    ['null', null],
    ['an unknown type', { type: 'exec', cmd: 'x' }],
    ['a result without an object', { type: 'result', id: 1, result: 'ok' }],
    ['a negative id', { type: 'result', id: -1, result: {} }],
    ['a fractional id', { type: 'result', id: 1.5, result: {} }],
    ['an output that is not a string', { type: 'result', id: 1, result: { output: 42 } }],
    ['warnings that are not strings', { type: 'result', id: 1, result: { warnings: [{}] } }],
    ['an error without its code', { type: 'result', id: 1, result: { error: { message: 'm', stack: '' } } }],
    ['a log line of an unknown level', { type: 'result', id: 1, result: { logs: [{ level: 'x', message: 'm' }] } }],
    [
      'a NaN memory figure',
      { type: 'memory', memory: { heapMB: NaN, bigIdleMB: 0, rssMB: 0, isolates: 0, evicted: 0 } },
    ],
    ['a host call without its plugin', { type: 'host', callId: 1, renderId: 1, request: '{}' }],
    ['an unknown body encoding', { type: 'result', id: 1, result: {}, bodyAs: 'hex' }, Buffer.from('00')],
    ['a body without its encoding', { type: 'result', id: 1, result: {} }, Buffer.from('x')],
    ['a body on a host call', { type: 'host', callId: 1, renderId: 1, plugin: 'p', request: '', bodyAs: 'utf8' }],
    ['an output both in the head and as the body', { type: 'result', id: 1, result: { output: 'a' }, bodyAs: 'utf8' }],
  ];
  it.each(malformed)('refuses %s', (_, head, body = none) => {
    expect(() => readFromWorker(head, body)).toThrow(WireError);
  });
});

describe('the frame reader', () => {
  it('refuses a frame longer than it allows before gathering it, and a head that does not deserialize', () => {
    const reader = new FrameReader(
      () => {},
      () => 1024,
    );
    const prefix = Buffer.alloc(8);
    prefix.writeUInt32LE(16, 0);
    prefix.writeUInt32LE(4 * 1024 * 1024 * 1024 - 1, 4);
    expect(() => reader.push(prefix)).toThrow(WireError);
    const bad = Buffer.concat([Buffer.from([4, 0, 0, 0, 0, 0, 0, 0]), Buffer.from([0xff, 0x0f, 0x99, 0x99])]);
    expect(() => new FrameReader(() => {}).push(bad)).toThrow(WireError);
    const good = serialize({ ok: 1 });
    const frame = Buffer.concat([Buffer.alloc(8), good]);
    frame.writeUInt32LE(good.length, 0);
    const got: unknown[] = [];
    new FrameReader((h) => got.push(h)).push(frame);
    expect(got).toEqual([{ ok: 1 }]);
  });
});

describe('vars as JSON text to a worker', () => {
  const roundTrip = (m: ToWorker): ToWorker => {
    const bytes: Buffer[] = [];
    const sink = { write: (b: Buffer) => bytes.push(Buffer.from(b)), writableLength: 0 } as unknown as Socket;
    const w = new FrameWriter(sink);
    writeToWorker(w, m);
    w.flush();
    let got: ToWorker | undefined;
    new FrameReader((head, body) => (got = readToWorker(head, body))).push(Buffer.concat(bytes));
    return got!;
  };
  const render = (vars: RenderVars): ToWorker => ({
    type: 'render',
    id: 1,
    tenant: 't',
    memoryMB: 128,
    template: { id: 'a', filename: 'a.js', key: 1 },
    request: {
      templateName: 'a',
      now: 0,
      site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
      validate: false,
      vars,
      maxIncludeDepth: 32,
      seed: [],
    },
    limits: {} as never,
  });

  it.each([
    ['plain-json', '{"a":"é"}'],
    ['json', '{"a":"é"}'],
    ['json', '{"a":"\ud800 lone"}'],
  ] as const)('carries %s text %j as the body', (format, text) => {
    const m = roundTrip(render({ format, text, objects: false }));
    expect(m.type === 'render' && m.request.vars).toEqual({ format, text, objects: false });
  });

  it('carries tables-json text as the body', () => {
    const text = '{"l":["\\u0000smartcage:table",["a"],[1,2]]}';
    const m = roundTrip(render({ format: 'tables-json', text }));
    expect(m.type === 'render' && m.request.vars).toEqual({ format: 'tables-json', text });
  });
});

describe('a worker that breaks the protocol', () => {
  const pool = new SandboxPool({ workers: 1 });
  afterAll(() => pool.close());
  const worker = () => (pool as unknown as { shared: { channel: Socket; proc: ChildProcess }[] }).shared[0]!;
  const render = (
    source: string,
    host: HostCallHandler = async () => '{}',
    vars: Record<string, unknown> | string = { x: 'v' },
  ) => {
    const id = `t${source.length}.tpl`;
    const c = compile(source, { name: id, id });
    const t: CompiledTemplate = { id, code: c.code, filename: `${id}.js`, hostFree: c.manifest.host.length === 0 };
    const request = renderRequest({
      templateName: id,
      now: 1700000000,
      site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
      vars,
      seed: Array.from({ length: 16 }, () => 1),
    });
    return pool.render('tenant', 128, t, request, DEFAULT_LIMITS, host);
  };

  it('renders with JSON text as vars, one with a lone surrogate too', async () => {
    const r = await render('[{$x|escape:"url"}|{$y|@count}]', undefined, '{"x":"aé","y":[1,2]}');
    expect(r.output).toBe('[a%C3%A9|2]');
    const lone = await render('[{$x|escape:"url"}]', undefined, '{"x":"a\ud800b"}');
    // Carried as it was: json_decode refuses it as PHP does (through UTF-8 it would have arrived
    // as U+FFFD, which decodes).
    expect(lone.error?.code).toBe('E_BAD_VARS');
    expect(lone.error?.message).toMatch(/Malformed UTF-8/);
  });

  it('is stopped as crashed; the embedding process goes on and a new worker renders', async () => {
    expect((await render('[{$x}]')).output).toBe('[v]');
    const w = worker();
    // A render in flight: its host call is never answered.
    let called: () => void = () => {};
    const calling = new Promise<void>((r) => (called = r));
    const pending = render('{secret var=s key="K"}{$s}', () => {
      called();
      return new Promise<string>(() => {});
    });
    await calling;
    const exited = new Promise((r) => w.proc.once('exit', r));
    // What a worker that is no longer ours might send: a result whose output is not a string.
    const head = serialize({ type: 'result', id: 2, result: { output: 42 } });
    const frame = Buffer.concat([Buffer.alloc(8), head]);
    frame.writeUInt32LE(head.length, 0);
    w.channel.emit('data', frame);
    expect((await pending).error?.code).toBe('E_SANDBOX_CRASHED');
    await exited;
    expect(worker()).not.toBe(w);
    expect((await render('[{$x}]')).output).toBe('[v]');
  });
});

describe('a worker that dies before it is ready', () => {
  it('fails the renders waiting for it instead of holding them, and its replacement renders', async () => {
    const pool = new SandboxPool({ workers: 1 });
    try {
      const c = compile('[{$x}]', { name: 'r.tpl', id: 'r.tpl' });
      const t: CompiledTemplate = { id: 'r.tpl', code: c.code, filename: 'r.js', hostFree: true };
      const request = renderRequest({
        templateName: 'r.tpl',
        now: 1700000000,
        site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
        vars: { x: 'v' },
        seed: Array.from({ length: 16 }, () => 1),
      });
      const first = pool.render('tenant', 128, t, request, DEFAULT_LIMITS, async () => '{}');
      process.kill(pool.pids()[0]!, 'SIGKILL');
      expect((await first).error?.code).toBe('E_SANDBOX_CRASHED');
      expect((await pool.render('tenant', 128, t, request, DEFAULT_LIMITS, async () => '{}')).output).toBe('[v]');
    } finally {
      await pool.close();
    }
  });
});
