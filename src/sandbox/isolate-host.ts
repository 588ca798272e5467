/**
 * One tenant's isolate at one memory class. This is the only module that touches isolated-vm,
 * so moving to another isolated-vm major is a change here (decisions.md item 11).
 *
 * Every render gets a fresh context (nothing a render leaves in globals reaches the next), the
 * runtime and the template are compiled once per isolate and run in each context. Two clocks:
 * isolated-vm's timeout counts the template's own CPU time; a host watchdog disposes the isolate
 * at the wall-clock deadline, which also covers host calls and sleeps. An isolate that breached
 * a limit is retired: the next render gets a new one.
 */
import ivm from 'isolated-vm';
import { runtimeBundle } from './runtime-bundle.js';
import type { SandboxLimits } from './limits.js';

/** Answers a privileged plugin call: plugin name and JSON request in, JSON answer out. */
export type HostCallHandler = (plugin: string, request: string) => Promise<string>;

export interface RawRenderResult {
  output?: string;
  warnings?: string[];
  logs?: { level: string; message: string }[];
  returnValue?: unknown;
  error?: { code: string; message: string; stack: string };
}

export interface CompiledTemplate {
  /** Key the script registers the template under. */
  id: string;
  code: string;
  /** Script name, which the isolate's stack traces use (never a host path). */
  filename: string;
}

const BOOTSTRAP = 'smartcage.bootstrap();';

export class IsolateHost {
  private readonly isolate: ivm.Isolate;
  private readonly runtime: ivm.Script;
  private readonly bootstrap: ivm.Script;
  private readonly scripts = new Map<string, { code: string; script: ivm.Script }>();
  /** Set once a render breached a limit: the isolate takes no more work. */
  retired = false;
  renders = 0;

  constructor(readonly memoryMB: number) {
    requireNoNodeSnapshot();
    this.isolate = new ivm.Isolate({ memoryLimit: memoryMB });
    this.runtime = this.isolate.compileScriptSync(runtimeBundle(), { filename: 'smartcage-runtime.js' });
    this.bootstrap = this.isolate.compileScriptSync(BOOTSTRAP, { filename: 'smartcage-bootstrap.js' });
  }

  get disposed(): boolean {
    return this.isolate.isDisposed;
  }

  get usable(): boolean {
    return !this.retired && !this.isolate.isDisposed;
  }

  private scriptFor(t: CompiledTemplate): ivm.Script {
    const known = this.scripts.get(t.id);
    if (known && known.code === t.code) return known.script;
    const script = this.isolate.compileScriptSync(t.code, { filename: t.filename });
    this.scripts.set(t.id, { code: t.code, script });
    return script;
  }

  async render(t: CompiledTemplate, request: Record<string, unknown>, limits: SandboxLimits, host: HostCallHandler | null): Promise<RawRenderResult> {
    this.renders++;
    let wallExpired = false;
    const watchdog = setTimeout(() => {
      wallExpired = true;
      this.retire();
    }, limits.wallMs);
    const context = await this.isolate.createContext();
    try {
      const budget = () => Math.max(1, limits.cpuMs);
      await this.runtime.run(context, { timeout: budget() });
      if (host) {
        // An arrow function has no `prototype` for the isolate to walk through the Reference.
        const hostCall = (plugin: string, req: string): Promise<string> => host(String(plugin), String(req));
        await context.global.set('__hostCall', new ivm.Reference(hostCall));
      }
      await this.bootstrap.run(context, { timeout: budget() });
      await this.scriptFor(t).run(context, { timeout: budget() });
      const smartcage = (await context.global.get('smartcage', { reference: true })) as ivm.Reference<{ render: unknown }>;
      const renderFn = (await smartcage.get('render', { reference: true })) as ivm.Reference<(...args: unknown[]) => RawRenderResult>;
      const result = (await renderFn.apply(undefined, [t.id, new ivm.ExternalCopy({ ...request, maxOutputChars: limits.maxOutputChars, maxErrorChars: limits.maxErrorChars }).copyInto({ release: true })], {
        timeout: limits.cpuMs,
        result: { copy: true },
      })) as RawRenderResult;
      if (result.error && /^E_(SIZE|OUTPUT|RECURSION)_LIMIT$/.test(result.error.code)) this.retire();
      return result;
    } catch (e) {
      this.retire();
      const message = e instanceof Error ? e.message : String(e);
      if (wallExpired) return sandboxError('E_WALL_TIMEOUT', `the render did not finish within ${limits.wallMs} ms of wall-clock time`);
      if (/timed out/i.test(message)) return sandboxError('E_CPU_TIMEOUT', `the render used more than ${limits.cpuMs} ms of CPU time`);
      if (/memory limit|disposed/i.test(message)) return sandboxError('E_MEMORY_LIMIT', `the render needed more than the ${this.memoryMB} MB memory limit`);
      return sandboxError('E_SANDBOX_CRASHED', 'the sandbox failed while rendering');
    } finally {
      clearTimeout(watchdog);
      if (!this.isolate.isDisposed) context.release();
    }
  }

  /** Stops using this isolate; it is disposed so that nothing it still runs can continue. */
  retire(): void {
    this.retired = true;
    if (!this.isolate.isDisposed) this.isolate.dispose();
  }

  heapBytes(): number {
    if (this.isolate.isDisposed) return 0;
    const h = this.isolate.getHeapStatisticsSync();
    return h.used_heap_size + h.externally_allocated_size;
  }
}

/**
 * isolated-vm on Node 20+ needs the process started with --no-node-snapshot; without it the
 * process may crash later, at random (../shared/docs/security.md OPS-01). Refuse to start instead.
 */
function requireNoNodeSnapshot(): void {
  const given = process.execArgv.includes('--no-node-snapshot') || /(^|\s)--no-node-snapshot(\s|$)/.test(process.env.NODE_OPTIONS ?? '');
  if (!given) throw new Error('smartcage: start Node with --no-node-snapshot (isolated-vm needs it on Node 20 and later)');
}

function sandboxError(code: string, message: string): RawRenderResult {
  return { error: { code, message, stack: '' } };
}
