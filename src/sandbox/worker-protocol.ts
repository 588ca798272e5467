/**
 * Messages between the embedding process and a sandbox worker process, and how each becomes a
 * frame (src/sandbox/frames.ts): the head is the message, structured-cloned; the two large strings
 * of a render travel as the frame's body instead, the text of `plain-json` vars
 * (src/sandbox/plain-json.ts) on the way in and the output on the way out.
 */
import type { CompiledTemplate, RenderResponse } from '../protocol/render.js';
import type { IsolateCacheOptions, MemoryReport } from './isolate-cache.js';
import type { SandboxLimits } from './limits.js';
import type { RenderRequestBody } from './request.js';
import { textEncoding, type FrameWriter, type TextEncoding } from './frames.js';

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

export function writeToWorker(w: FrameWriter, m: ToWorker): void {
  if (m.type !== 'render' || m.request.vars.format !== 'plain-json') return w.write(m);
  const vars = m.request.vars;
  // The text goes as the body; its place in the head is left empty. JSON.stringify escapes lone
  // surrogates: the text is well-formed, and UTF-8 carries it exactly.
  const head = { ...m, request: { ...m.request, vars: { ...vars, text: '' } }, bodyAs: 'utf8' as const };
  w.write(head satisfies Head<ToWorker>, vars.text, 'utf8');
}

export function readToWorker(head: unknown, body: Buffer): ToWorker {
  const { bodyAs, ...m } = head as Head<ToWorker>;
  if (m.type === 'render' && bodyAs && m.request.vars.format === 'plain-json')
    m.request.vars.text = body.toString(bodyAs);
  return m;
}

export function writeFromWorker(w: FrameWriter, m: FromWorker): void {
  if (m.type !== 'result' || m.result.output === undefined) return w.write(m);
  const { output, ...result } = m.result;
  const bodyAs = textEncoding(output);
  w.write({ ...m, result, bodyAs } satisfies Head<FromWorker>, output, bodyAs);
}

export function readFromWorker(head: unknown, body: Buffer): FromWorker {
  const { bodyAs, ...m } = head as Head<FromWorker>;
  if (m.type === 'result' && bodyAs) m.result.output = body.toString(bodyAs);
  return m;
}
