/**
 * A sandbox worker process: owns the isolates of the tenants sent to it and runs their renders.
 * Template code never runs in the embedding process. Privileged plugin calls are relayed to the
 * embedding process, where the host adapters live. If V8 dies here (a fatal out-of-memory), only
 * this process goes; the pool starts another.
 */
import { allowSyncRenders, sandboxError } from './isolate-host.js';
import { syncRender } from './sync-render.js';
import type { CompiledTemplate } from '../protocol/render.js';
import { Socket } from 'node:net';
import { readToWorker, writeFromWorker, type FromWorker, type ToWorker } from './worker-protocol.js';
import { FrameReader, FrameWriter } from './frames.js';
import { TenantIsolates, type MemoryReport } from './isolate-cache.js';

/** Made by the pool's `configure` message, which comes first (defaults if it did not). */
let isolates: TenantIsolates | undefined;
const cache = (): TenantIsolates => (isolates ??= new TenantIsolates({}, reportMemory));
const pendingHost = new Map<number, (answer: string) => void>();
/** Template code by the key the pool gave it (src/sandbox/worker-protocol.ts `WireTemplate`). */
const templates = new Map<number, CompiledTemplate>();
let nextCall = 1;

// This process exists only to render: a template that cannot call the host renders synchronously.
allowSyncRenders(syncRender);

const reader = new FrameReader((head, body) => onMessage(readToWorker(head, body)));
/**
 * fd 3: the socket pair the pool made (src/sandbox/pool.ts), frames both ways. Reads land in one
 * buffer used again (the reader copies what it must keep), not in a new 64 KB buffer per read.
 */
const readBuffer = Buffer.allocUnsafe(64 * 1024);
const channel = new Socket({
  fd: 3,
  readable: true,
  writable: true,
  onread: {
    buffer: readBuffer,
    callback: (n) => {
      reader.push(readBuffer.subarray(0, n));
      return true;
    },
  },
});
const writer = new FrameWriter(channel);

function send(m: FromWorker): void {
  writeFromWorker(writer, m);
}

function reportMemory(): void {
  send({ type: 'memory', memory: (lastReport = cache().report()) });
}

let lastReport: MemoryReport | undefined;

/**
 * What the worker holds, for an answer: only when it moved since the pool last heard (renders in a
 * steady state do not move it, and each report costs ~6 µs of IPC serialization).
 */
function memoryIfChanged(): MemoryReport | undefined {
  const now = cache().report();
  const last = lastReport;
  if (
    last &&
    now.isolates === last.isolates &&
    now.evicted === last.evicted &&
    Math.abs(now.heapMB - last.heapMB) < 1 &&
    Math.abs(now.bigIdleMB - last.bigIdleMB) < 1
  )
    return undefined;
  return (lastReport = now);
}

function onMessage(m: ToWorker): void {
  if (m.type === 'hostAnswer') {
    pendingHost.get(m.callId)?.(m.answer);
    pendingHost.delete(m.callId);
    return;
  }
  if (m.type === 'forgetTemplates') {
    templates.clear();
    return;
  }
  if (m.type === 'configure') {
    void isolates?.close();
    isolates = new TenantIsolates(m.isolates, reportMemory);
    return;
  }
  if (m.type === 'evictBig') {
    cache().evictBig();
    reportMemory();
    return;
  }
  const { key, code, ...rest } = m.template;
  if (code !== undefined) templates.set(key, { ...rest, code });
  const template = templates.get(key);
  if (!template) {
    // The pool sends a template's code to a worker before it names the template by key alone:
    // reaching here is a bug in the pool.
    send({
      type: 'result',
      id: m.id,
      result: sandboxError('E_SANDBOX_CRASHED', 'the sandbox worker lost the template code'),
      memory: memoryIfChanged(),
    });
    return;
  }
  const host = (plugin: string, request: string) =>
    new Promise<string>((resolve) => {
      const callId = nextCall++;
      pendingHost.set(callId, resolve);
      send({ type: 'host', callId, renderId: m.id, plugin, request });
    });
  cache()
    .render(m.tenant, m.memoryMB, template, m.request, m.limits, host, null, m.group)
    .then((result) => send({ type: 'result', id: m.id, result, memory: memoryIfChanged() }))
    .catch(() =>
      send({
        type: 'result',
        id: m.id,
        result: sandboxError('E_SANDBOX_CRASHED', 'the sandbox failed while rendering'),
        memory: memoryIfChanged(),
      }),
    );
}

// The pool closed its end (or died): nothing more will come. The exit waits for the work the
// disposal cut short to settle (D351); the pool kills a worker still here after 2 s.
const shutDown = () => {
  void (isolates?.close() ?? Promise.resolve()).finally(() => process.exit(0));
};
channel.on('end', shutDown);
channel.on('error', shutDown);

send({ type: 'ready', pid: process.pid, rssMB: Math.round(process.memoryUsage.rss() / 1048576) });
