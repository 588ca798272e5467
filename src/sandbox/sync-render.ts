/**
 * The synchronous render of a sandbox worker: isolated-vm's `applySync`, for a template that
 * cannot call the host (`CompiledTemplate.hostFree`), in a live context where it is defined
 * already. It saves the two hops to the isolate's thread and back that the async `apply` takes.
 *
 * Imported by the worker entry alone (src/sandbox/worker-main.ts): a synchronous call holds the
 * thread that made it until the isolate returns, and the embedding process must never be that
 * thread (docs/security.md OPS-04, OPS-05; docs/decisions.md D117). In a worker it holds only the
 * worker, whose renders wait meanwhile; the CPU timeout still stops the isolate, and the pool
 * kills a worker that stops answering.
 */
import type ivm from 'isolated-vm';
import { responseOf, type RenderAnswer, type RenderResponse } from '../protocol/render.js';

/** The render function of a live context (`smartcage.render` in the isolate). */
type RenderFunction = ivm.Reference<(...args: unknown[]) => RenderAnswer>;

export type SyncRender = (
  render: RenderFunction,
  args: Parameters<RenderFunction['applySync']>[1],
  timeoutMs: number,
) => RenderResponse;

export const syncRender: SyncRender = (render, args, timeoutMs) =>
  responseOf(render.applySync(undefined, args, { timeout: timeoutMs, result: { copy: true } }) as RenderAnswer);
