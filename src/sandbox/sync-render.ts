/**
 * The synchronous render of a sandbox worker: isolated-vm's `applySync`, for a template that
 * cannot call the host (`CompiledTemplate.hostFree`), in a live context where it is defined
 * already. It saves the two hops to the isolate's thread and back that the async `apply` takes.
 *
 * Imported by the worker entry alone (src/sandbox/worker-main.ts): a synchronous call holds the
 * thread that made it until the isolate returns, and the embedding process must never be that
 * thread (docs/security.md OPS-04, OPS-05; docs/decisions.md D117). In a worker it holds only the
 * worker, whose renders wait meanwhile; the watchdog (D374) or isolated-vm's timeout stops the
 * isolate at the render's deadline, and the pool kills a worker that stops answering.
 */
import type ivm from 'isolated-vm';
import { responseOf, type RenderAnswer, type RenderResponse } from '../protocol/render.js';
import { withWatchdog, type WatchedIsolate } from './slice-watchdog.js';

/** The render function of a live context (`smartcage.render` in the isolate). */
type RenderFunction = ivm.Reference<(...args: unknown[]) => RenderAnswer>;

export type SyncRender = (
  render: RenderFunction,
  args: Parameters<RenderFunction['applySync']>[1],
  timeoutMs: number,
  watched: WatchedIsolate | null,
) => RenderResponse;

/**
 * Bounded by the slice's watchdog where it knows the isolate (D373: no timer thread woken per
 * call), else by isolated-vm's timeout. Armed for the render's own deadline, as the timeout was:
 * the render cuts itself there too (D187), and either way the render ends as a CPU timeout.
 */
export const syncRender: SyncRender = (render, args, timeoutMs, watched) =>
  responseOf(
    withWatchdog(watched, timeoutMs, (armed) =>
      render.applySync(
        undefined,
        args,
        armed ? { result: { copy: true } } : { timeout: timeoutMs, result: { copy: true } },
      ),
    ) as RenderAnswer,
  );
