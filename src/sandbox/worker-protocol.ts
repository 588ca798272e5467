/**
 * Messages between the embedding process and a sandbox worker process, and how each becomes a
 * frame (src/sandbox/frames.ts): the head is the message, structured-cloned; the large strings
 * of a render travel as the frame's body instead, the vars' text (`plain-json` and `tables-json`
 * vars, src/sandbox/plain-json.ts, and an embedder's `json` text) on the way in and the output on
 * the way out.
 *
 * The worker is the sandbox's side: what it sends is untrusted. `readFromWorker` rebuilds each
 * message field by field from what it checked and refuses anything else with a WireError, and the
 * pool then stops that worker as crashed (src/sandbox/worker-process.ts); a malformed frame never
 * throws into the embedder's event loop.
 */
import type { CompiledTemplate, RenderResponse } from '../protocol/render.js';
import type { IsolateCacheOptions, MemoryReport } from './isolate-cache.js';
import type { SandboxLimits } from './limits.js';
import type { RenderRequestBody } from './request.js';
import { textEncoding, WireError, type FrameWriter, type TextEncoding } from './frames.js';
import type { LogLine } from '../protocol/log.js';
import type { RenderVars } from '../protocol/vars.js';

/**
 * A template as it goes to a worker: its code only the first time that worker gets it (`key` names
 * the code from then on; src/sandbox/pool.ts). Templates run to tens of KB of code, and the same
 * one is rendered again and again.
 */
export type WireTemplate = Omit<CompiledTemplate, 'code'> & { key: number; code?: string };

export type ToWorker =
  | {
      type: 'render';
      id: number;
      tenant: string;
      /** The tenant's isolate group (PoolOptions.tenantsPerIsolate), when the embedder gave one. */
      group?: string;
      memoryMB: number;
      template: WireTemplate;
      request: RenderRequestBody;
      limits: SandboxLimits;
    }
  | { type: 'hostAnswer'; callId: number; answer: string }
  /** Drop every template's code: the next render of each carries it again. */
  | { type: 'forgetTemplates' }
  /** Sent first: when the worker disposes its isolates (src/sandbox/isolate-cache.ts). */
  | { type: 'configure'; isolates: IsolateCacheOptions }
  /** Dispose the idle isolates of the classes above 128 MB: a big render waits for their memory. */
  | { type: 'evictBig' };

export type FromWorker =
  /** `rssMB`: the worker's resident memory when it was ready, before any isolate (what a fresh worker costs). */
  | { type: 'ready'; pid: number; rssMB: number }
  /** `memory`: what the worker holds once the render's isolate was accounted for, when that moved. */
  | { type: 'result'; id: number; result: RenderResponse; memory?: MemoryReport }
  /** After the worker disposed isolates on its own (idle) or when asked to (`evictBig`). */
  | { type: 'memory'; memory: MemoryReport }
  | { type: 'host'; callId: number; renderId: number; plugin: string; request: string };

/** A head whose string went as the body: `bodyAs` says how it was encoded (absent: no body). */
type Head<M> = M & { bodyAs?: TextEncoding };

/** The vars that are text: it goes as the frame's body. */
type TextVars = Extract<RenderVars, { text: string }>;

function isText(vars: RenderVars): vars is TextVars {
  return vars.format === 'plain-json' || vars.format === 'tables-json' || vars.format === 'json';
}

export function writeToWorker(w: FrameWriter, m: ToWorker): void {
  if (m.type !== 'render') return w.write(m);
  const vars = m.request.vars;
  if (!isText(vars)) return w.write(m);
  // The text goes as the body; its place in the head is left empty. JSON.stringify escapes lone
  // surrogates, so the host's text is well-formed; an embedder's `json` text may not be.
  const bodyAs = vars.format === 'json' ? textEncoding(vars.text) : 'utf8';
  const head = { ...m, request: { ...m.request, vars: { ...vars, text: '' } }, bodyAs };
  w.write(head satisfies Head<ToWorker>, vars.text, bodyAs);
}

/** In the worker: the pool's message (trusted: the pool is the embedder's side). */
export function readToWorker(head: unknown, body: Buffer): ToWorker {
  const { bodyAs, ...m } = head as Head<ToWorker>;
  if (m.type === 'render' && bodyAs && isText(m.request.vars)) m.request.vars.text = body.toString(bodyAs);
  return m;
}

export function writeFromWorker(w: FrameWriter, m: FromWorker): void {
  if (m.type !== 'result' || m.result.output === undefined) return w.write(m);
  const { output, ...result } = m.result;
  const bodyAs = textEncoding(output);
  w.write({ ...m, result, bodyAs } satisfies Head<FromWorker>, output, bodyAs);
}

/** On the host: the worker's message, checked field by field (WireError when it is not one). */
export function readFromWorker(head: unknown, body: Buffer): FromWorker {
  const h = record(head, 'message');
  const bodyAs = h.bodyAs;
  if (bodyAs !== undefined && bodyAs !== 'utf8' && bodyAs !== 'utf16le') throw new WireError('unknown body encoding');
  if (bodyAs === undefined && body.length > 0) throw new WireError('a body without its encoding');
  if (bodyAs !== undefined && h.type !== 'result') throw new WireError(`a body on a ${String(h.type)} message`);
  switch (h.type) {
    case 'ready':
      return { type: 'ready', pid: count(h.pid, 'pid'), rssMB: amount(h.rssMB, 'rssMB') };
    case 'result': {
      const result = renderResponse(h.result);
      if (bodyAs !== undefined) {
        if (result.output !== undefined) throw new WireError('the output both in the head and as the body');
        result.output = body.toString(bodyAs);
      }
      return h.memory === undefined
        ? { type: 'result', id: count(h.id, 'id'), result }
        : { type: 'result', id: count(h.id, 'id'), result, memory: memoryReport(h.memory) };
    }
    case 'memory':
      return { type: 'memory', memory: memoryReport(h.memory) };
    case 'host':
      return {
        type: 'host',
        callId: count(h.callId, 'callId'),
        renderId: count(h.renderId, 'renderId'),
        plugin: text(h.plugin, 'plugin'),
        request: text(h.request, 'request'),
      };
    default:
      throw new WireError('unknown message type');
  }
}

/** A render's answer from a worker, rebuilt from the fields a RenderResponse has (others are dropped). */
function renderResponse(x: unknown): RenderResponse {
  const r = record(x, 'result');
  const out: RenderResponse = {};
  if (r.output !== undefined) out.output = text(r.output, 'output');
  if (r.warnings !== undefined) out.warnings = list(r.warnings, 'warnings', text);
  if (r.warningsAt !== undefined) out.warningsAt = list(r.warningsAt, 'warningsAt', numeric);
  if (r.logs !== undefined) out.logs = list(r.logs, 'logs', logLine);
  if (r.logsAt !== undefined) out.logsAt = list(r.logsAt, 'logsAt', numeric);
  // Data, as structured clone made it: the engine hands it on as the template's {return} value.
  if (r.returnValue !== undefined) out.returnValue = r.returnValue;
  if (r.returnJson !== undefined) out.returnJson = text(r.returnJson, 'returnJson');
  if (r.cpuMs !== undefined) out.cpuMs = amount(r.cpuMs, 'cpuMs');
  if (r.error !== undefined) {
    const e = record(r.error, 'error');
    out.error = {
      code: text(e.code, 'error.code'),
      message: text(e.message, 'error.message'),
      stack: text(e.stack, 'error.stack'),
    };
    if (e.at !== undefined) out.error.at = numeric(e.at, 'error.at');
  }
  if (r.contextTainted !== undefined) out.contextTainted = flag(r.contextTainted, 'contextTainted');
  return out;
}

function memoryReport(x: unknown): MemoryReport {
  const m = record(x, 'memory');
  return {
    heapMB: amount(m.heapMB, 'heapMB'),
    bigIdleMB: amount(m.bigIdleMB, 'bigIdleMB'),
    rssMB: amount(m.rssMB, 'rssMB'),
    isolates: count(m.isolates, 'isolates'),
    evicted: count(m.evicted, 'evicted'),
  };
}

function logLine(x: unknown, what: string): LogLine {
  const l = record(x, what);
  if (l.level !== 'info' && l.level !== 'warning' && l.level !== 'error') throw new WireError(`${what}: unknown level`);
  return { level: l.level, message: text(l.message, what) };
}

function record(x: unknown, what: string): Record<string, unknown> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) throw new WireError(`${what} is not an object`);
  return x as Record<string, unknown>;
}

function list<T>(x: unknown, what: string, item: (v: unknown, what: string) => T): T[] {
  if (!Array.isArray(x)) throw new WireError(`${what} is not a list`);
  return x.map((v) => item(v, what));
}

function text(x: unknown, what: string): string {
  if (typeof x !== 'string') throw new WireError(`${what} is not a string`);
  return x;
}

/** A whole number >= 0 (ids, counts, the position slot). */
function count(x: unknown, what: string): number {
  if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < 0) throw new WireError(`${what} is not a count`);
  return x;
}

/** A finite number >= 0 (sizes, times). */
function amount(x: unknown, what: string): number {
  if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) throw new WireError(`${what} is not an amount`);
  return x;
}

/** A number the engine range-checks itself (position slots: src/engine.ts `slotPosition`). */
function numeric(x: unknown, what: string): number {
  if (typeof x !== 'number') throw new WireError(`${what} is not a number`);
  return x;
}

function flag(x: unknown, what: string): boolean {
  if (typeof x !== 'boolean') throw new WireError(`${what} is not a boolean`);
  return x;
}
