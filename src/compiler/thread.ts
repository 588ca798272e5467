/**
 * Compiles templates on a worker thread, so that a big template does not stop the embedding
 * process's event loop (a 1 MB template takes 1-2 s to compile; docs/sandbox.md).
 *
 * One thread, started at the first compile and kept; one compile at a time. Waiting compiles
 * queue per tenant and the tenants take turns, so a tenant sending many big templates delays
 * another tenant's by at most one compile each. The queue is bounded (E_COMPILE_BUSY), each
 * compile has a time cap after which the thread is terminated (E_TEMPLATE_TOO_LARGE), and the
 * thread's heap is capped (a compile that outgrows it fails the same way, and only the thread dies).
 *
 * Lookups of included templates and custom functions run here, on the embedding thread (they
 * are the embedder's functions, called with the render's identity); the compile thread asks
 * for each one and waits (src/compiler/thread-main.ts).
 */
import { Worker, MessageChannel, type MessagePort } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { TemplateError, type Diagnostic } from '../errors.js';
import type { Manifest } from './index.js';
import type { PluginData } from '../plugins/plugin-set.js';

/** A compile the thread runs. */
export interface CompileJob {
  source: string;
  name: string;
  id: string;
  maxCodeChars: number;
  maxSourceChars: number;
  defaultModifiers: readonly string[];
}

/** What the thread answers: the compile result with its line table flat (4 numbers per entry). */
export interface ThreadResult {
  code: string;
  manifest: Manifest;
  lineTable: Int32Array;
  diagnostics: Diagnostic[];
}

/** The text of an included template or custom function, or null when there is none. */
export type Lookup = (kind: 'template' | 'function', key: string) => string | null;

export interface ThreadData {
  port: MessagePort;
  signal: SharedArrayBuffer;
  /** The engine's own plugins, as the compiler reads them (none: the built-in set alone). */
  plugins: readonly PluginData[];
}

export type ToThread = CompileJob & { job: number };

export type FromThread =
  | { type: 'ready' }
  | { type: 'lookup'; job: number; kind: 'template' | 'function'; key: string }
  | ({ type: 'done'; job: number } & ThreadResult)
  /** The embedder's lookup threw. */
  | { type: 'aborted'; job: number }
  /** The compiler threw (a bug): the message, as the inline compile would have thrown it. */
  | { type: 'failed'; job: number; message: string };

export type LookupAnswer = { text: string | null } | { tooLarge: true } | { abort: true };

export interface CompileThreadOptions {
  /** Time one compile may take on the thread, ms. */
  timeoutMs: number;
  /** Heap of the thread, MB. */
  heapMB: number;
  /** Compiles waiting, per tenant and in all. */
  maxQueuedPerTenant: number;
  maxQueued: number;
  /** The engine's own plugins (createEngine({ plugins })), which every compile on this thread may call. */
  plugins?: readonly PluginData[];
}

interface Pending {
  job: number;
  tenant: string;
  work: CompileJob;
  lookup: Lookup;
  resolve(r: ThreadResult): void;
  reject(e: unknown): void;
}

interface Running {
  pending: Pending;
  timer: NodeJS.Timeout;
  /** The embedder's lookup threw this. */
  lookupError?: { error: unknown };
}

interface Live {
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
  ready: boolean;
}

export class CompileThread {
  private live: Live | null = null;
  private running: Running | null = null;
  /** Waiting compiles per tenant; the Map's order is the tenants' turn order. */
  private readonly queues = new Map<string, Pending[]>();
  private queued = 0;
  private nextJob = 1;
  private closed = false;

  constructor(private readonly opts: CompileThreadOptions) {}

  compile(tenant: string, work: CompileJob, lookup: Lookup): Promise<ThreadResult> {
    if (this.closed) return Promise.reject(new Error('smartcage: the engine is closed'));
    const mine = this.queues.get(tenant);
    if ((mine?.length ?? 0) >= this.opts.maxQueuedPerTenant || this.queued >= this.opts.maxQueued) {
      const what =
        mine && mine.length >= this.opts.maxQueuedPerTenant
          ? `${mine.length} templates of this tenant`
          : `${this.queued} templates`;
      return Promise.reject(
        new TemplateError({
          code: 'E_COMPILE_BUSY',
          message: `${what} are already waiting to be compiled; try again later`,
          name: work.name,
          line: 0,
          column: 0,
          frame: '',
        }),
      );
    }
    return new Promise<ThreadResult>((resolve, reject) => {
      const p: Pending = { job: this.nextJob++, tenant, work, lookup, resolve, reject };
      if (mine) mine.push(p);
      else this.queues.set(tenant, [p]);
      this.queued++;
      this.pump();
    });
  }

  /** Fails the waiting compiles; resolves once the thread has ended. */
  close(): Promise<void> {
    this.closed = true;
    const gone = new Error('smartcage: the engine is closed');
    for (const q of this.queues.values()) for (const p of q) p.reject(gone);
    this.queues.clear();
    this.queued = 0;
    if (this.running) {
      clearTimeout(this.running.timer);
      this.running.pending.reject(gone);
      this.running = null;
    }
    return this.stopThread();
  }

  /** Starts the next waiting compile when the thread is free. */
  private pump(): void {
    if (this.running || this.queued === 0 || this.closed) return;
    const live = this.live ?? this.startThread();
    // Waiting work keeps the process alive (an idle thread does not).
    live.worker.ref();
    if (!live.ready) return;
    // The first tenant in turn order; it goes to the back if it has more waiting.
    const [tenant, queue] = this.queues.entries().next().value as [string, Pending[]];
    const p = queue.shift() as Pending;
    this.queues.delete(tenant);
    if (queue.length) this.queues.set(tenant, queue);
    this.queued--;
    const timer = setTimeout(() => this.timedOut(), this.opts.timeoutMs);
    this.running = { pending: p, timer };
    live.worker.postMessage({ ...p.work, job: p.job } satisfies ToThread);
  }

  private startThread(): Live {
    const ts = import.meta.url.endsWith('.ts');
    const entry = fileURLToPath(new URL(`./thread-main.${ts ? 'ts' : 'js'}`, import.meta.url));
    const channel = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    const worker = new Worker(entry, {
      workerData: { port: channel.port2, signal, plugins: this.opts.plugins ?? [] } satisfies ThreadData,
      transferList: [channel.port2],
      execArgv: ts ? ['--import', 'tsx'] : [],
      resourceLimits: { maxOldGenerationSizeMb: this.opts.heapMB },
    });
    const live: Live = { worker, port: channel.port1, flag: new Int32Array(signal), ready: false };
    this.live = live;
    worker.unref();
    worker.on('message', (m: FromThread) => this.onMessage(live, m));
    worker.on('error', (e) => this.threadDied(live, e));
    worker.on('exit', () => this.threadDied(live, null));
    return live;
  }

  /** Stops the thread; resolves once it has ended. */
  private stopThread(): Promise<void> {
    const live = this.live;
    this.live = null;
    if (!live) return Promise.resolve();
    live.port.close();
    return live.worker.terminate().then(
      () => {},
      () => {},
    );
  }

  private onMessage(live: Live, m: FromThread): void {
    if (live !== this.live) return;
    if (m.type === 'ready') {
      live.ready = true;
      this.pump();
      return;
    }
    const run = this.running;
    if (!run || run.pending.job !== m.job) return;
    if (m.type === 'lookup') {
      live.port.postMessage(this.answer(run, m.kind, m.key));
      Atomics.store(live.flag, 0, 1);
      Atomics.notify(live.flag, 0);
      return;
    }
    this.finish(run);
    if (m.type === 'done')
      run.pending.resolve({ code: m.code, manifest: m.manifest, lineTable: m.lineTable, diagnostics: m.diagnostics });
    else if (m.type === 'aborted')
      run.pending.reject(run.lookupError ? run.lookupError.error : new Error('smartcage: a template lookup failed'));
    else run.pending.reject(new Error(m.message));
  }

  private answer(run: Running, kind: 'template' | 'function', key: string): LookupAnswer {
    try {
      const text = run.pending.lookup(kind, key);
      return text !== null && text.length > run.pending.work.maxSourceChars ? { tooLarge: true } : { text };
    } catch (error) {
      run.lookupError = { error };
      return { abort: true };
    }
  }

  private timedOut(): void {
    const run = this.running;
    if (!run) return;
    this.finish(run);
    run.pending.reject(tooLarge(run.pending.work.name, `compiling it took longer than ${this.opts.timeoutMs} ms`));
    // The thread may be anywhere in the compile: only a new one is known to be clean.
    void this.stopThread();
    this.pump();
  }

  /** The thread ended on its own: out of heap (resourceLimits), or a crash. */
  private threadDied(live: Live, err: Error | null): void {
    if (live !== this.live) return;
    this.live = null;
    if (!live.ready) {
      // It never started (a broken installation): starting another would only fail the same way.
      const why = new Error(`smartcage: the compile thread did not start${err ? `: ${err.message}` : ''}`);
      for (const q of this.queues.values()) for (const p of q) p.reject(why);
      this.queues.clear();
      this.queued = 0;
      return;
    }
    const run = this.running;
    if (run) {
      this.finish(run);
      const oom = (err as NodeJS.ErrnoException | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
      run.pending.reject(
        oom
          ? tooLarge(run.pending.work.name, `compiling it needed more than ${this.opts.heapMB} MB`)
          : new Error(`smartcage: the compile thread stopped${err ? `: ${err.message}` : ''}`),
      );
    }
    this.pump();
  }

  private finish(run: Running): void {
    clearTimeout(run.timer);
    this.running = null;
    this.live?.worker.unref();
    queueMicrotask(() => this.pump());
  }
}

function tooLarge(name: string, why: string): TemplateError {
  return new TemplateError({
    code: 'E_TEMPLATE_TOO_LARGE',
    message: `the template is too large to compile: ${why}`,
    name,
    line: 0,
    column: 0,
    frame: '',
  });
}
