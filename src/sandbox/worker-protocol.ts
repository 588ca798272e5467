/** Messages between the embedding process and a sandbox worker process. */
import type { CompiledTemplate, RenderResponse } from '../protocol/render.js';
import type { IsolateCacheOptions, MemoryReport } from './isolate-cache.js';
import type { SandboxLimits } from './limits.js';
import type { RenderRequestBody } from './request.js';

/**
 * A template as it goes to a worker: its code only the first time that worker gets it (`key` names
 * the code from then on; src/sandbox/pool.ts). Templates run to tens of KB of code, and the same
 * one is rendered again and again.
 */
export type WireTemplate = Omit<CompiledTemplate, 'code'> & { key: number; code?: string };

/**
 * A render request as it goes to a worker: plain-data variables as UTF-8 JSON text
 * (src/sandbox/plain-json.ts), which the worker turns back into `plainVars` for the isolate.
 */
export type WireRequest = Omit<RenderRequestBody, 'plainVars'> & { plainVarsUtf8?: Uint8Array };

export type ToWorker =
  | { type: 'render'; id: number; tenant: string; memoryMB: number; template: WireTemplate; request: WireRequest; limits: SandboxLimits }
  | { type: 'hostAnswer'; callId: number; answer: string }
  /** Drop every template's code: the next render of each carries it again. */
  | { type: 'forgetTemplates' }
  /** Sent first: when the worker disposes its isolates (src/sandbox/isolate-cache.ts). */
  | { type: 'configure'; isolates: IsolateCacheOptions }
  /** Dispose the idle isolates of the classes above 128 MB: a big render waits for their memory. */
  | { type: 'evictBig' };

export type FromWorker =
  | { type: 'ready'; pid: number }
  /** `memory`: what the worker holds once the render's isolate was accounted for, when that moved. */
  | { type: 'result'; id: number; result: RenderResponse; memory?: MemoryReport }
  /** After the worker disposed isolates on its own (idle) or when asked to (`evictBig`). */
  | { type: 'memory'; memory: MemoryReport }
  | { type: 'host'; callId: number; renderId: number; plugin: string; request: string };
