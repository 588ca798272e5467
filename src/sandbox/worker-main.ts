/**
 * A sandbox worker process: owns the isolates of the tenants sent to it and runs their renders.
 * Template code never runs in the embedding process. Privileged plugin calls are relayed to the
 * embedding process, where the host adapters live. If V8 dies here (a fatal out-of-memory), only
 * this process goes; the pool starts another.
 */
import { IsolateHost, sandboxError } from './isolate-host.js';
import type { CompiledTemplate } from '../protocol/render.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';
import { requestFromWire } from './plain-json.js';
import { TenantIsolates, type MemoryReport } from './isolate-cache.js';

/** Made by the pool's `configure` message, which comes first (defaults if it did not). */
let isolates: TenantIsolates | undefined;
const cache = (): TenantIsolates => (isolates ??= new TenantIsolates({}, reportMemory));
const pendingHost = new Map<number, (answer: string) => void>();
/** Template code by the key the pool gave it (src/sandbox/worker-protocol.ts `WireTemplate`). */
const templates = new Map<number, CompiledTemplate>();
let nextCall = 1;

function send(m: FromWorker): void {
  process.send!(m);
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
  if (last && now.isolates === last.isolates && now.evicted === last.evicted && Math.abs(now.heapMB - last.heapMB) < 1 && Math.abs(now.bigIdleMB - last.bigIdleMB) < 1) return undefined;
  return (lastReport = now);
}

process.on('message', (m: ToWorker) => {
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
    isolates?.close();
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
    send({ type: 'result', id: m.id, result: sandboxError('E_SANDBOX_CRASHED', 'the sandbox worker lost the template code'), memory: memoryIfChanged() });
    return;
  }
  const host = (plugin: string, request: string) =>
    new Promise<string>((resolve) => {
      const callId = nextCall++;
      pendingHost.set(callId, resolve);
      send({ type: 'host', callId, renderId: m.id, plugin, request });
    });
  cache()
    .render(m.tenant, m.memoryMB, template, requestFromWire(m.request), m.limits, host)
    .then((result) => send({ type: 'result', id: m.id, result, memory: memoryIfChanged() }))
    .catch(() => send({ type: 'result', id: m.id, result: sandboxError('E_SANDBOX_CRASHED', 'the sandbox failed while rendering'), memory: memoryIfChanged() }));
});

process.on('disconnect', () => {
  isolates?.close();
  IsolateHost.closeSpares();
  process.exit(0);
});

send({ type: 'ready', pid: process.pid });
