/**
 * One isolated-vm isolate with the runtime loaded, and the templates defined in it. This is
 * the only module that touches isolated-vm, so moving to another isolated-vm major is a change
 * here (decisions.md item 11).
 */
import ivm from 'isolated-vm';
import { runtimeBundle } from './runtime-bundle.js';

export interface IsolateOptions {
  memoryMB: number;
}

export interface RawRenderResult {
  output?: string;
  warnings?: string[];
  logs?: { level: string; message: string }[];
  returnValue?: unknown;
  error?: { code: string; message: string; stack: string };
}

export class IsolateHost {
  private readonly isolate: ivm.Isolate;
  private readonly context: ivm.Context;
  private readonly renderRef: ivm.Reference<(name: string, req: unknown) => RawRenderResult>;
  /** Template id -> the code defined for it (redefined when an include changed the code). */
  private readonly defined = new Map<string, string>();

  constructor(readonly opts: IsolateOptions) {
    this.isolate = new ivm.Isolate({ memoryLimit: opts.memoryMB });
    this.context = this.isolate.createContextSync();
    this.isolate.compileScriptSync(runtimeBundle(), { filename: 'smartcage-runtime.js' }).runSync(this.context);
    // The wrapper turns exceptions into data: custom fields (code) do not survive a throw across isolates.
    this.context.evalSync(`globalThis.__render = (name, req) => {
      try { return smartcage.render(name, req); }
      catch (e) {
        const err = e instanceof Error ? e : new Error(String(e));
        return { error: { code: String(err.code || err.constructor && err.constructor.name || 'Error'), message: String(err.message), stack: String(err.stack || '') } };
      }
    }`);
    this.renderRef = this.context.global.getSync('__render', { reference: true });
  }

  /** Defines a compiled template in this isolate, again only when its code changed. */
  define(id: string, code: string, filename: string): void {
    if (this.defined.get(id) === code) return;
    this.isolate.compileScriptSync(code, { filename }).runSync(this.context, { timeout: 1000 });
    this.defined.set(id, code);
  }

  async render(id: string, request: unknown, timeoutMs: number): Promise<RawRenderResult> {
    return this.renderRef.apply(undefined, [id, new ivm.ExternalCopy(request).copyInto({ release: true })], {
      timeout: timeoutMs,
      result: { copy: true },
    }) as Promise<RawRenderResult>;
  }

  get disposed(): boolean {
    return this.isolate.isDisposed;
  }

  dispose(): void {
    if (!this.isolate.isDisposed) this.isolate.dispose();
  }
}
