/** Messages between the embedding process and a sandbox worker process. */
import type { CompiledTemplate, RawRenderResult } from './isolate-host.js';
import type { SandboxLimits } from './limits.js';
import type { RenderRequestBody } from './request.js';

export type ToWorker =
  | { type: 'render'; id: number; tenant: string; memoryMB: number; template: CompiledTemplate; request: RenderRequestBody; limits: SandboxLimits }
  | { type: 'hostAnswer'; callId: number; answer: string };

export type FromWorker =
  | { type: 'ready'; pid: number }
  | { type: 'result'; id: number; result: RawRenderResult }
  | { type: 'host'; callId: number; renderId: number; plugin: string; request: string };
