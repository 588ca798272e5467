/**
 * Supervised sandbox worker processes. The embedding process never runs template code: renders
 * go to child processes started with --no-node-snapshot. A V8 fatal error, a runaway allocation
 * or a hang kills at most one worker; its in-flight renders fail with E_SANDBOX_CRASHED, and a
 * new worker takes its place. A tenant whose renders keep killing workers gets a worker of its
 * own (quarantine), so that it cannot take other tenants down with it.
 *
 * Scheduling: a tenant always goes to the same worker (its isolates stay warm), at most
 * `perTenantConcurrency` renders of one tenant run at once, and isolates above 128 MB are
 * admitted against a host-wide memory budget (renders queue rather than fail).
 */
import pLimit, { type LimitFunction } from 'p-limit';
import { sandboxError } from './isolate-host.js';
import type { HostCallHandler } from '../protocol/host-call.js';
import type { CompiledTemplate, RenderResponse } from '../protocol/render.js';
import type { SandboxLimits } from './limits.js';
import type { RenderRequestBody } from './request.js';
import { plainVarsOf } from './plain-json.js';
import type { MemoryReport } from './isolate-cache.js';
import { WorkerProcess } from './worker-process.js';
import { spreadHash } from '../text/string-hash.js';

export interface PoolOptions {
  /** Worker processes shared by all tenants (default 2: one per core on the target machine). */
  workers: number;
  /**
   * Renders of one tenant running at the same time (default 1): on a 2-core host a tenant
   * running two endless renders at once starved the others (docs/security.md CPU-10, goal G7).
   */
  perTenantConcurrency: number;
  /**
   * Memory the isolates above the default class may hold at once, MB (default 1536). A render
   * of such a class reserves its class while it runs; the idle isolates of those classes that
   * the workers keep (spares included) count with the heap they hold. A render that does not
   * fit first has the workers dispose those idle isolates, then waits for renders to end.
   */
  bigMemoryBudgetMB: number;
  /**
   * A tenant's isolate unused this long is disposed, and so is an idle spare of a class above
   * 128 MB, ms (default 60,000). A tenant back after that pays for a spare: ~3-7 ms more on its
   * first render than with its own warm isolate.
   */
  isolateIdleMs: number;
  /**
   * An isolate whose committed heap is above this after a render is disposed as soon as the
   * answer is out, MB (default 64; the benchmark page leaves ~5 MB). Its tenant's next render
   * takes the warm spare.
   */
  isolateRetainMB: number;
  /**
   * A tenant's isolate unused this long gets one memory-reducing collection, ms (default 30,000;
   * 0: never): ~12 ms of CPU on isolated-vm's thread, once per idle period, for ~2.4 MB less per
   * idle tenant of the benchmark page. In workers, which start with --expose-gc; with workers: 0
   * only if the embedder started its process with that flag (docs/decisions.md D121).
   */
  isolateReduceAfterMs: number;
  /**
   * Committed heap the idle isolates of one worker may hold together, MB (default 512; ~5 MB per
   * warm tenant): beyond it the least recently used are disposed.
   */
  workerHeapBudgetMB: number;
  /** Tenant isolates one worker keeps (default 200): past it the least recently used idle one is disposed. */
  workerMaxIsolates: number;
  /**
   * A shared worker that holds no tenant isolate and runs no render, yet whose RSS is this much
   * above what it was when it started, is replaced by a fresh one, MB (default 64): memory that
   * disposed isolates leave in the process's allocator is given back no other way. At most once
   * per `recycleEveryMs` (default 60,000) per worker slot.
   */
  recycleIdleAboveMB: number;
  recycleEveryMs: number;
  /**
   * Tenants of one isolate group (EngineOptions.isolateGroup: the embedder's, e.g. one customer's
   * sites) that share an isolate of the default class, a context each (default 1: every tenant
   * has isolates of its own; at most 32). Sharing trades isolation between those tenants for
   * memory: ~1.5 MB of RSS per warm tenant instead of ~5-6 MB (the list page, D342). They share
   * the isolate's 128 MB, its one thread (one render at a time) and its fate: a render that
   * breaches a limit ends the isolate, and the renders of the others queued behind it run on a
   * new one (docs/decisions.md D342).
   */
  tenantsPerIsolate: number;
  /** Worker crashes within `crashWindowMs` after which a tenant is quarantined (default 2). */
  quarantineAfterCrashes: number;
  crashWindowMs: number;
}

/** What the pool holds and does now (the engine's `stats()`). */
export interface PoolSnapshot {
  /** Sandbox worker processes alive. */
  workers: number;
  /** Tenant isolates the workers hold. */
  isolates: number;
  /** Isolates the workers alive disposed by the idle, retain and budget rules (a new worker starts at 0). */
  evicted: number;
  /** Renders waiting: behind another render of their tenant, for memory admission, or for a worker to start. */
  queued: number;
  /** Renders a worker is running. */
  running: number;
  /** Worker processes that died since the pool started. */
  crashes: number;
}

export const DEFAULT_POOL: PoolOptions = {
  workers: 2,
  perTenantConcurrency: 1,
  bigMemoryBudgetMB: 1536,
  isolateIdleMs: 60_000,
  isolateRetainMB: 64,
  isolateReduceAfterMs: 30_000,
  workerHeapBudgetMB: 512,
  workerMaxIsolates: 200,
  recycleIdleAboveMB: 64,
  recycleEveryMs: 60_000,
  tenantsPerIsolate: 1,
  quarantineAfterCrashes: 2,
  crashWindowMs: 60_000,
};

export class SandboxPool {
  private readonly opts: PoolOptions;
  private readonly shared: WorkerProcess[] = [];
  private readonly quarantined = new Map<string, WorkerProcess>();
  private readonly tenantLimits = new Map<string, LimitFunction>();
  private readonly crashes = new Map<string, number[]>();
  private bigInUse = 0;
  private readonly bigWaiters: (() => void)[] = [];
  private nextId = 1;
  /** A number per template object the engine renders (the engine keeps one object per compiled template). */
  private readonly templateKeys = new WeakMap<CompiledTemplate, number>();
  private nextTemplateKey = 1;
  private closed = false;
  readonly stats = { crashes: 0, restarts: 0, quarantined: 0, recycled: 0 };

  constructor(opts: Partial<PoolOptions> = {}) {
    this.opts = { ...DEFAULT_POOL, ...opts };
    for (let i = 0; i < this.opts.workers; i++) this.shared.push(this.spawn());
  }

  private spawn(): WorkerProcess {
    const {
      isolateIdleMs: idleMs,
      isolateRetainMB: retainMB,
      workerHeapBudgetMB: heapBudgetMB,
      workerMaxIsolates: maxIsolates,
      isolateReduceAfterMs: reduceAfterMs,
      tenantsPerIsolate,
    } = this.opts;
    return new WorkerProcess(
      (w) => this.onExit(w),
      (w) => {
        this.wakeBig();
        this.recycleIfBloated(w);
      },
      { idleMs, retainMB, heapBudgetMB, maxIsolates, reduceAfterMs, tenantsPerIsolate },
    );
  }

  private workers(): WorkerProcess[] {
    return [...this.shared, ...this.quarantined.values()];
  }

  /** Big-render waiters look again (a render ended, a worker reported its memory or exited). */
  private wakeBig(): void {
    this.bigWaiters.splice(0).forEach((r) => r());
  }

  /**
   * Replaces a shared worker that holds no tenant isolate, runs nothing, and yet holds far more
   * memory than when it started: what its disposed isolates left in the allocator's arenas (~2-3
   * MB per tenant that came and went) stays in the process otherwise. Its spare goes with it; the
   * fresh worker makes another at its first render. Decided on a report the worker sends after its
   * idle timer disposed isolates, so a busy worker is never replaced.
   */
  private recycleIfBloated(w: WorkerProcess): void {
    const slot = this.shared.indexOf(w);
    if (slot < 0 || this.closed || w.retired || w.startRssMB === 0) return;
    if (w.memory.isolates > 0 || w.inflight.size > 0) return;
    if (w.memory.rssMB - w.startRssMB <= this.opts.recycleIdleAboveMB) return;
    const wait = w.startedAt + this.opts.recycleEveryMs - Date.now();
    if (wait > 0) {
      // Too young: looked at again when it may go (an idle worker sends no other report).
      w.recheck ??= setTimeout(() => {
        w.recheck = undefined;
        this.recycleIfBloated(w);
      }, wait).unref();
      return;
    }
    w.retired = true;
    this.shared[slot] = this.spawn();
    this.stats.recycled++;
    w.close();
    setTimeout(() => w.kill(), 2000).unref();
  }

  private onExit(w: WorkerProcess): void {
    if (w.retired && w.inflight.size === 0) return;
    for (const [, f] of w.inflight) {
      clearTimeout(f.timer);
      this.recordCrash(f.tenant);
      f.resolve(sandboxError('E_SANDBOX_CRASHED', 'the sandbox process stopped during the render'));
    }
    w.inflight.clear();
    if (this.closed) return;
    this.stats.crashes++;
    const i = this.shared.indexOf(w);
    if (i >= 0) {
      this.shared[i] = this.spawn();
      this.stats.restarts++;
    }
    for (const [tenant, q] of this.quarantined) if (q === w) this.quarantined.delete(tenant);
    // Its isolates went with it.
    this.wakeBig();
  }

  private recordCrash(tenant: string): void {
    const now = Date.now();
    const recent = (this.crashes.get(tenant) ?? []).filter((t) => now - t < this.opts.crashWindowMs);
    recent.push(now);
    this.crashes.set(tenant, recent);
  }

  /** `group`: a grouped tenant goes to its group's worker, where the group's isolates are. */
  private workerFor(tenant: string, group: string | undefined): WorkerProcess {
    const q = this.quarantined.get(tenant);
    if (q && !q.exited) return q;
    const recent = (this.crashes.get(tenant) ?? []).filter((t) => Date.now() - t < this.opts.crashWindowMs);
    if (recent.length >= this.opts.quarantineAfterCrashes) {
      const own = this.spawn();
      this.quarantined.set(tenant, own);
      this.stats.quarantined++;
      return own;
    }
    const spread = group !== undefined && this.opts.tenantsPerIsolate > 1 ? `\u0001${group}` : tenant;
    return this.shared[spreadHash(spread) % this.shared.length];
  }

  /**
   * Admission of a render above the default class: it reserves its class against the budget,
   * next to the reservations of the big renders in flight and the heap the workers' idle big
   * isolates hold. Those idle isolates are disposed first when that makes room; otherwise the
   * render waits for one in flight to end.
   */
  private async admitBig(mb: number): Promise<() => void> {
    if (mb <= 128) return () => {};
    const budget = this.opts.bigMemoryBudgetMB;
    const need = Math.min(mb, budget);
    for (;;) {
      const resident = this.workers().reduce((n, w) => n + (w.exited ? 0 : w.memory.bigIdleMB), 0);
      if (this.bigInUse + need + resident <= budget) break;
      if (resident > 0 && this.bigInUse + need <= budget) this.evictBig();
      await new Promise<void>((r) => this.bigWaiters.push(r));
    }
    this.bigInUse += need;
    return () => {
      this.bigInUse -= need;
      this.wakeBig();
    };
  }

  /** Asks the workers holding idle big isolates to dispose them; their answer wakes the waiters. */
  private evictBig(): void {
    for (const w of this.workers()) {
      if (!w.open || w.evictAsked || w.memory.bigIdleMB <= 0) continue;
      w.evictAsked = true;
      w.send({ type: 'evictBig' });
    }
  }

  render(
    tenant: string,
    memoryMB: number,
    template: CompiledTemplate,
    request: RenderRequestBody,
    limits: SandboxLimits,
    host: HostCallHandler,
    group?: string,
  ): Promise<RenderResponse> {
    let limit = this.tenantLimits.get(tenant);
    if (!limit) {
      limit = pLimit(this.opts.perTenantConcurrency);
      this.tenantLimits.set(tenant, limit);
    }
    return limit(async () => {
      const release = await this.admitBig(memoryMB);
      try {
        const w = this.workerFor(tenant, group);
        await w.ready;
        if (w.exited) return sandboxError('E_SANDBOX_CRASHED', 'the sandbox process stopped before the render started');
        return await new Promise<RenderResponse>((resolve) => {
          const id = this.nextId++;
          // A worker that does not answer well after the wall deadline is hung: kill it.
          const timer = setTimeout(() => w.kill(), limits.wallMs + 2000);
          w.inflight.set(id, { tenant, resolve, host, timer });
          w.send({
            type: 'render',
            id,
            tenant,
            ...(group !== undefined ? { group } : {}),
            memoryMB,
            template: w.wire(template, this.templateKey(template)),
            request: plainVarsOf(request),
            limits,
          });
        });
      } finally {
        release();
      }
    });
  }

  private templateKey(t: CompiledTemplate): number {
    let key = this.templateKeys.get(t);
    if (key === undefined) {
      key = this.nextTemplateKey++;
      this.templateKeys.set(t, key);
    }
    return key;
  }

  /** Worker process ids (for tests that kill one). */
  pids(): number[] {
    return this.shared.map((w) => w.proc.pid ?? 0);
  }

  /** Counts for an observer (`Engine.stats()`): read-only, as the workers last reported. */
  snapshot(): PoolSnapshot {
    const live = this.workers().filter((w) => !w.exited);
    let running = 0;
    for (const w of live) running += w.inflight.size;
    let admitted = 0;
    let queued = 0;
    for (const l of this.tenantLimits.values()) {
      admitted += l.activeCount;
      queued += l.pendingCount;
    }
    return {
      workers: live.length,
      isolates: live.reduce((n, w) => n + w.memory.isolates, 0),
      evicted: live.reduce((n, w) => n + w.memory.evicted, 0),
      // Admitted but not yet sent to a worker: waiting for memory admission or a starting worker.
      queued: queued + Math.max(0, admitted - running),
      running,
      crashes: this.stats.crashes,
    };
  }

  /** What each worker holds, as it last reported (shared workers, then quarantined ones). */
  memory(): (MemoryReport & { pid: number })[] {
    return this.workers().map((w) => ({ pid: w.proc.pid ?? 0, ...w.memory }));
  }

  /** Asks every worker to finish; resolves once they have exited (killed if still there after 2 s). */
  close(): Promise<void> {
    this.closed = true;
    const workers = this.workers();
    for (const w of workers) {
      w.close();
      setTimeout(() => w.kill(), 2000).unref();
    }
    return Promise.all(workers.map((w) => w.gone)).then(() => {});
  }
}
