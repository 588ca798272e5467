/**
 * The tenant isolates of one process (a sandbox worker, or the embedding process with workers: 0),
 * and when they go. An isolate keeps whatever heap its renders grew: one render of a 512 MB
 * tenant that built 200 MB of data left 200 MB resident for as long as the process lived, and
 * every tenant that ever rendered kept its isolate. Three rules bound it:
 *
 * - an isolate whose heap is above `retainMB` after a render is disposed once the render's
 *   answer is out (its tenant's next render takes the warm spare): the benchmark page leaves
 *   ~5 MB committed, so only renders that really built big data lose their isolate;
 * - an isolate unused for `idleMs` is disposed, and so is a spare of a class above 128 MB;
 * - when the idle isolates of the process hold more than `heapBudgetMB` together, or there are
 *   more than `maxIsolates` isolates, the least recently used idle ones go first.
 *
 * Nothing here touches an isolate while a render is queued or running in it. A disposed
 * isolate's pages go to V8's process-wide page pool, where new isolates reuse them; V8 hands
 * what is left back to the system 8 s later (a fixed delay in V8 13.6, `PagePool`).
 */
import { SparePool, settleAll, wasRetiredBeforeStart, type IsolateHost } from './isolate-host.js';
import type { HostCallHandler, HostCallsNow } from '../protocol/host-call.js';
import type { CompiledTemplate, RenderResponse } from '../protocol/render.js';
import type { SandboxLimits } from './limits.js';
import type { RenderRequestBody } from './request.js';

export interface IsolateCacheOptions {
  /** An isolate unused this long is disposed, ms. */
  idleMs: number;
  /** An isolate whose committed heap is above this after a render is disposed, MB. */
  retainMB: number;
  /** Committed heap the idle isolates of one process may hold together, MB. */
  heapBudgetMB: number;
  /** Tenant isolates one process keeps (a host with 1,000 sites bounds its warm ones by count too). */
  maxIsolates: number;
  /**
   * An isolate unused this long gets one memory-reducing collection, ms (0: never). Only where
   * the process exposes V8's `gc`: sandbox workers do.
   */
  reduceAfterMs: number;
  /**
   * Tenants of one isolate group (`EngineOptions.isolateGroup`) that share an isolate of the
   * default class, a context each (1: none share). See PoolOptions.tenantsPerIsolate, D342.
   */
  tenantsPerIsolate: number;
}

const DEFAULT_ISOLATE_CACHE: IsolateCacheOptions = {
  idleMs: 60_000,
  retainMB: 64,
  heapBudgetMB: 512,
  maxIsolates: 200,
  reduceAfterMs: 30_000,
  tenantsPerIsolate: 1,
};

/** What a process holds, as its sandbox worker reports it to the pool with every answer. */
export interface MemoryReport {
  /** Committed heap of every isolate, spares included (a rendering one as last measured), MB. */
  heapMB: number;
  /** Committed heap of the idle isolates of the classes above 128 MB, spares included, MB. */
  bigIdleMB: number;
  /** Resident memory of the process, MB (read at most once a second). */
  rssMB: number;
  /** Tenant isolates held (an isolate tenants share counts once). */
  isolates: number;
  /** Isolates disposed by the rules above since the process started. */
  evicted: number;
}

const MB = 1024 * 1024;
const MEASURE_EVERY_MS = 10;
/** The process's resident memory is read at most this often (a read costs ~13 µs). */
const RSS_EVERY_MS = 1000;
const DEFAULT_CLASS_MB = 128;

export class TenantIsolates {
  /**
   * By tenant and class, least recently used first (a render moves its entry to the end); an
   * isolate tenants of a group share is under the group's key and its number (`sharedKey`).
   */
  private readonly hosts = new Map<string, IsolateHost>();
  /** A grouped tenant's shared isolate: tenant -> its group and key in `hosts` (looked at again when that isolate went). */
  private readonly sharedOf = new Map<string, { group: string; key: string }>();
  /** This cache's own warm spares: another engine's cache never hands out one of them (D159). */
  readonly spares = new SparePool();
  private evicted = 0;
  private closed = false;
  private rss = { bytes: 0, at: -Infinity };
  private readonly timer: NodeJS.Timeout;
  private readonly opts: IsolateCacheOptions;

  /** `onEvict` hears of disposals made by the idle timer (the pool's view of a worker's memory). */
  constructor(
    opts: Partial<IsolateCacheOptions> = {},
    private readonly onEvict?: () => void,
  ) {
    this.opts = { ...DEFAULT_ISOLATE_CACHE, ...opts };
    const { idleMs, reduceAfterMs } = this.opts;
    this.timer = setInterval(
      () => this.sweep(),
      Math.max(50, Math.min(idleMs / 4, reduceAfterMs > 0 ? reduceAfterMs / 2 : Infinity, 5000)),
    );
    this.timer.unref();
  }

  /**
   * `group`: the tenant's isolate group (EngineOptions.isolateGroup). With `tenantsPerIsolate`
   * above 1, tenants of one group share isolates of the default class, a context each.
   */
  render(
    tenant: string,
    memoryMB: number,
    t: CompiledTemplate,
    request: RenderRequestBody,
    limits: SandboxLimits,
    bridge: HostCallHandler | null,
    now: HostCallsNow | null = null,
    group?: string,
  ): Promise<RenderResponse> {
    const shared = group !== undefined && this.opts.tenantsPerIsolate > 1 && memoryMB === DEFAULT_CLASS_MB;
    const key = shared ? this.sharedKey(group, tenant) : `${tenant}\0${memoryMB}`;
    let host = this.hosts.get(key);
    if (!host || !host.usable) {
      host = this.spares.acquire(memoryMB);
      if (shared) host.tenants.add(tenant);
    }
    this.hosts.delete(key);
    this.hosts.set(key, host);
    const again = () => this.render(tenant, memoryMB, t, request, limits, bridge, now, group);
    // A spare taken while it warms: a warm-up that fails disposes it, and the render goes to the
    // fresh isolate the next call makes for its unusable host, instead of failing with it (D258).
    const warming = host.warmingUp();
    if (warming)
      return warming.then((ok) =>
        ok ? this.renderOn(key, host, t, request, limits, bridge, now, shared ? tenant : '', again) : again(),
      );
    return this.renderOn(key, host, t, request, limits, bridge, now, shared ? tenant : '', again);
  }

  /**
   * The key in `hosts` of the shared isolate that `tenant` of `group` renders in: the one it was
   * given while that isolate lives, else the first of the group's with room for one more tenant
   * (a new one past them). Group names come from the embedder, never from a template.
   */
  private sharedKey(group: string, tenant: string): string {
    const given = this.sharedOf.get(tenant);
    // Not a place in another group's isolate: a tenant the embedder moved renders in its new group's.
    if (given?.group === group && this.hosts.get(given.key)?.tenants.has(tenant)) return given.key;
    for (let i = 0; ; i++) {
      const key = `\u0001${group}\0${i}`;
      const host = this.hosts.get(key);
      if (host?.usable && host.tenants.size >= this.opts.tenantsPerIsolate) continue;
      // Its first render makes it (or a usable host with room): the tenant is one of it from now.
      host?.tenants.add(tenant);
      this.sharedOf.set(tenant, { group, key });
      return key;
    }
  }

  /**
   * `tenant`: whose context, in a shared isolate ('' in a tenant's own). `again`: the render sent
   * anew, for one that found its isolate retired when its turn came (in a shared isolate, another
   * tenant's render before it breached a limit): it has not run, so it runs on the next isolate.
   */
  private renderOn(
    key: string,
    host: IsolateHost,
    t: CompiledTemplate,
    request: RenderRequestBody,
    limits: SandboxLimits,
    bridge: HostCallHandler | null,
    now: HostCallsNow | null,
    tenant: string,
    again: () => Promise<RenderResponse>,
  ): Promise<RenderResponse> {
    const started = performance.now();
    return host.render(t, request, limits, bridge, now, tenant).then((result) => {
      this.settle(key, host, started);
      // A shared isolate with room: the next tenant of the group finds a warm context there.
      if (tenant !== '' && host.usable && host.tenants.size < this.opts.tenantsPerIsolate) host.prepareContext();
      // A tenant's own isolate retired by its own earlier render: that render's failure is its own (as before D342).
      return tenant !== '' && !this.closed && wasRetiredBeforeStart(result) ? again() : result;
    });
  }

  /**
   * After a render: the isolate's heap, then the retain rule and the budget. The heap is read
   * (~5 µs) after a render of 10 ms or more, and otherwise at most every 10 ms per isolate:
   * renders that short cannot grow a heap by much, and a tenant rendering a light page a
   * thousand times a second need not pay for a read each time.
   */
  private settle(key: string, host: IsolateHost, started: number): void {
    if (!host.usable) {
      if (this.hosts.get(key) === host) this.hosts.delete(key);
      return;
    }
    if (host.busy) return;
    this.fitCount();
    const now = performance.now();
    if (now - started < MEASURE_EVERY_MS && now - host.measuredAt < MEASURE_EVERY_MS) return;
    if (host.measureHeap() > this.opts.retainMB * MB) this.evict(key, host);
    this.fitBudget();
  }

  /** Disposes the least recently used idle isolates while there are more than maxIsolates. */
  private fitCount(): void {
    let over = this.hosts.size - this.opts.maxIsolates;
    if (over <= 0) return;
    for (const [key, h] of this.hosts) {
      if (over <= 0) break;
      if (h.busy) continue;
      this.evict(key, h);
      over--;
    }
  }

  /** Disposes the least recently used idle isolates until the idle ones fit the budget. */
  private fitBudget(): void {
    let idle = 0;
    for (const h of this.hosts.values()) if (!h.busy) idle += h.heapBytes;
    if (idle <= this.opts.heapBudgetMB * MB) return;
    for (const [key, h] of this.hosts) {
      if (idle <= this.opts.heapBudgetMB * MB) break;
      if (h.busy) continue;
      idle -= h.heapBytes;
      this.evict(key, h);
    }
  }

  /**
   * Disposes the isolates and big-class spares unused for `idleMs`; an isolate unused for
   * `reduceAfterMs` gets its memory-reducing collection (`IsolateHost.reduceMemory`).
   */
  sweep(now = Date.now()): number {
    let n = 0;
    const { idleMs, reduceAfterMs } = this.opts;
    const reduced: Promise<void>[] = [];
    for (const [key, h] of this.hosts) {
      if (!h.usable) this.hosts.delete(key);
      else if (!h.busy && now - h.lastUsed >= idleMs) {
        this.evict(key, h);
        n++;
      } else {
        // A shared isolate in use: the contexts of its tenants gone idle go, and their places.
        if (h.tenants.size > 0) h.dropIdleTenants(idleMs, now);
        if (reduceAfterMs > 0 && now - h.lastUsed >= reduceAfterMs) {
          const r = h.reduceMemory();
          if (r) reduced.push(r);
        }
      }
    }
    for (const [tenant, { key }] of this.sharedOf)
      if (!this.hosts.get(key)?.tenants.has(tenant)) this.sharedOf.delete(tenant);
    // The pool hears what the collections gave back (its view of a worker's heap).
    if (reduced.length > 0) void Promise.all(reduced).then(() => this.onEvict?.());
    const spares = this.spares.drop(DEFAULT_CLASS_MB, this.opts.idleMs, now);
    this.evicted += spares;
    n += spares;
    if (n > 0) this.onEvict?.();
    return n;
  }

  /**
   * Disposes every idle isolate of a class above 128 MB, spares included: the pool needs their
   * memory for a big render waiting to be admitted.
   */
  evictBig(): number {
    let n = 0;
    for (const [key, h] of this.hosts) {
      if (h.memoryMB > DEFAULT_CLASS_MB && !h.busy) {
        this.evict(key, h);
        n++;
      }
    }
    const spares = this.spares.drop(DEFAULT_CLASS_MB, 0);
    this.evicted += spares;
    return n + spares;
  }

  private evict(key: string, h: IsolateHost): void {
    this.hosts.delete(key);
    this.evicted++;
    h.retireSoon();
  }

  /** The tenant isolates held, as `tenant/class` (`group GROUP/N` when shared), least recently used first. */
  held(): string[] {
    return [...this.hosts.keys()].map((k) => k.replace('\u0001', 'group ').replace('\0', '/'));
  }

  report(): MemoryReport {
    let heap = this.spares.heapBytes();
    let bigIdle = this.spares.heapBytes(DEFAULT_CLASS_MB);
    for (const h of this.hosts.values()) {
      heap += h.heapBytes;
      if (h.memoryMB > DEFAULT_CLASS_MB && !h.busy) bigIdle += h.heapBytes;
    }
    const now = performance.now();
    if (now - this.rss.at >= RSS_EVERY_MS) this.rss = { bytes: process.memoryUsage.rss(), at: now };
    return {
      heapMB: round(heap / MB),
      bigIdleMB: round(bigIdle / MB),
      rssMB: round(this.rss.bytes / MB),
      isolates: this.hosts.size,
      evicted: this.evicted,
    };
  }

  /** Disposes every isolate; resolves once the work the disposal cut short has settled (D351). */
  close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    const hosts = [...this.hosts.values()];
    this.hosts.clear();
    for (const h of hosts) h.retire();
    // One wait, and one bound, for the tenants' isolates and the spares alike.
    return settleAll([...hosts, ...this.spares.retireAll()]);
  }
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}
