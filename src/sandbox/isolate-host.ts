/**
 * One tenant's isolate at one memory class (IsolateHost): it defines compiled templates in its
 * render context and runs renders there, one at a time, under the two clocks. It also keeps a
 * warm spare isolate per memory class for the next tenant (warmed with src/sandbox/warmup.ts),
 * holds the check that refuses to run without --no-node-snapshot, and shapes the sandbox's own
 * errors (sandboxError). With runtime-bundle.ts (the runtime script and its code cache) and
 * code-cache.ts (the templates' code cache) it is all the code that imports isolated-vm, so
 * moving to another isolated-vm major is a change in these three files (docs/decisions.md D23).
 *
 * The render context is reused for the tenant's renders, one render at a time: the runtime
 * freezes every built-in and its own objects at bootstrap (src/runtime/lockdown.ts), so a render
 * cannot leave anything behind for the next; each render's variables and state are new. The
 * context is replaced after `RENDERS_PER_CONTEXT` renders or `TEMPLATES_PER_CONTEXT` templates
 * defined in it. (A fresh context per render costs about 4 ms here: the runtime has to run again
 * in it.) An isolate that tenants of one group share (PoolOptions.tenantsPerIsolate, D342) holds
 * a context per tenant, and a warm one ready for the next (`prepareContext`).
 *
 * Two clocks: isolated-vm's timeout counts the template's own CPU time; a host watchdog
 * disposes the isolate at the wall-clock deadline, which also covers host calls and sleeps.
 * An isolate that breached a limit is retired: the next render gets a new one.
 */
import ivm from 'isolated-vm';
import { TemplateError, type ErrorCode } from '../errors.js';
import { compileRuntime } from './runtime-bundle.js';
import { templateCodeCache } from './code-cache.js';
import { DEFAULT_LIMITS, type SandboxLimits } from './limits.js';
import { WARMUP_RENDERS, warmupRequest, warmupTemplate } from './warmup.js';
import { requestText, withLimits, withTables, type RenderRequestBody } from './request.js';
import type { HostAnswer, HostCallHandler, HostCallsNow } from '../protocol/host-call.js';
import { CUT_AS_TIMEOUT, classifyIsolateError } from './ivm-errors.js';
import type { SyncRender } from './sync-render.js';
import {
  MAX_SLICE_VARS_BYTES,
  nextTurn,
  renderInSlice,
  sliceTimeoutMs,
  sliceTurnLeft,
  type RequestArg,
} from './sync-slice.js';
import { unwatch, watch, type WatchedIsolate } from './slice-watchdog.js';
import { responseOf, type CompiledTemplate, type RenderAnswer, type RenderResponse } from '../protocol/render.js';

/**
 * A new context costs far more than its ~10 ms set-up: its functions are new closures, so V8
 * optimizes the runtime again from nothing, and the next ~50 renders of the benchmark page run
 * 3-4x slower. Measured: ~140 ms of CPU per replacement, which at one per 1,000 renders was
 * ~140 µs of every render (docs/decisions.md D29). The lockdown, not the replacement, is what keeps
 * renders apart; replacing bounds what a context accumulates: the templates defined in it (the
 * runtime's own caches are bounded where they are kept).
 */
const RENDERS_PER_CONTEXT = 50_000;
/** The position slot while no render runs in a context: no isolate ever writes it. */
const NO_POSITION = new Int32Array(new SharedArrayBuffer(4));
const TEMPLATES_PER_CONTEXT = 200;
const BOOTSTRAP = 'smartcage.bootstrap();';
/**
 * A taken spare's first render still running this long is likely one that ends at a limit, whose
 * isolate is then retired and whose tenant's next render needs the next spare at once: that spare
 * starts now instead of at the render's end (D357). A new tenant's usual first render is done well
 * before, and does not share the machine with a spare's build.
 */
const EARLY_SPARE_MS = 20;
/** A memory-reducing collection of a tenant's heap takes ~12 ms of CPU (the benchmark page's tenant). */
const REDUCE_TIMEOUT_MS = 2000;
const noop = (): void => {};
/** The longest a close waits for its disposed isolates' work to settle (`settleAll`). */
const SETTLE_MAX_MS = 2000;
/**
 * How long a close waits after the work settled. Measured (D351): a process that exited at once
 * crashed in 10 of 60 runs, after 2 ms in none of 60; 20 ms leaves room for a loaded machine.
 */
const SETTLE_GRACE_MS = 20;
const NO_RENDER = JSON.stringify({
  ok: false,
  error: { code: 'E_BRIDGE_CLOSED', message: 'no render is running' },
} satisfies HostAnswer);
const NOT_IN_SLICE = JSON.stringify({
  ok: false,
  error: {
    code: 'E_BRIDGE_CLOSED',
    message: 'a host call answered at once belongs to a render in a slice, and none runs',
  },
} satisfies HostAnswer);
const SLICE_OVER = JSON.stringify({
  ok: false,
  error: { code: 'E_SLICE_YIELD', message: "the slice's time is up: the render runs again asynchronously" },
} satisfies HostAnswer);

interface LiveContext {
  /** Whose context it is: a tenant of a shared isolate, or '' (the isolate's one tenant, or a spare's warm-up). */
  tenant: string;
  context: ivm.Context;
  render: ivm.Reference<(...args: unknown[]) => RenderAnswer>;
  reduce: ivm.Reference<() => boolean>;
  defined: Map<string, string>;
  renders: number;
  /** When its last render ended, ms since the epoch (a shared isolate drops a tenant's context idle this long). */
  lastUsed: number;
  /** Its position slot (IsolateHost `where`). */
  where: Int32Array<SharedArrayBuffer>;
  /**
   * Templates whose synchronous slice ran out (or held this thread past twice the slice): the
   * renders each goes asynchronously before it is sliced again, and how many that was last time
   * (doubled at each cut, 8 to 1,024, halved when it fits again), so a template that does not
   * fit pays for a cut rarely.
   */
  cuts: Map<string, { backoff: number; wait: number }>;
}

/** A render between its synchronous start and its end (IsolateHost `start`, `complete`, `finish`). */
interface Started {
  live: LiveContext;
  t: CompiledTemplate;
  limits: SandboxLimits;
  /** The template's define was queued ahead of this render. */
  defining: boolean;
  /** performance.now() when the render started (the wall-clock deadline counts from it). */
  started: number;
  /** The request as JSON text (src/sandbox/request.ts `requestText`, D299), or null and its clone in `copy`. */
  text: string | null;
  copy: ivm.ExternalCopy | null;
  /** A sandbox worker's synchronous render (D117). */
  sync: boolean;
  /** The answer, once the render has one (its slice's, or a failure); null: the async call is next. */
  result: RenderResponse | null;
  /** The async call's CPU time: the limit, less what a cut slice used. */
  cpuMs: number;
  /** The slice before the async call was cut (the runtime then clears what its `finally` blocks restore). */
  afterCut: boolean;
}

interface Watchdog {
  expired: boolean;
  timer: NodeJS.Timeout;
}

export class IsolateHost {
  private readonly isolate: ivm.Isolate;
  /** The slice watchdog's hold on this isolate (D373): undefined until its first context, null without one. */
  private watched: WatchedIsolate | null | undefined = undefined;
  private readonly runtime: ivm.Script;
  private readonly bootstrap: ivm.Script;
  /**
   * The render contexts, by tenant. An isolate of one tenant has one, under '' (the spare's
   * warm-up context, which the tenant takes over warm). An isolate that tenants of one group share
   * (`pool.tenantsPerIsolate`, D342) has one per tenant: the first tenant takes over the warm-up's,
   * each later one gets a new context (the runtime's bytecode is the isolate's, shared).
   */
  private readonly contexts = new Map<string, LiveContext>();
  /** The tenants a shared isolate is given to (TenantIsolates assigns them, up to its `tenantsPerIsolate`). */
  readonly tenants = new Set<string>();
  /** The bridge of the render in progress; host calls from the isolate go to it and nowhere else. */
  private active: HostCallHandler | null = null;
  /**
   * The calls answered at once of the render in its synchronous slice, and when that slice ends
   * (performance.now()): set around the slice alone, so a call made at once at any other time,
   * or past the slice's end, is refused (docs/decisions.md D268).
   */
  private activeNow: HostCallsNow | null = null;
  private sliceEnds = 0;
  /** Renders run one after the other (isolated-vm would serialize them anyway). */
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * The position slot of the context the current render runs in, shared with it
   * (src/runtime/template-api.ts `where`): generated code stores where it runs; the host reads it
   * when the isolate was stopped from outside. The memory outlives the isolate, so even a memory
   * kill leaves the last position readable. One per context (`LiveContext.where`): the tenants of a
   * shared isolate do not see each other's positions.
   */
  private where = NO_POSITION;
  /** A spare that a tenant took (its warm-up, if not begun, is skipped). */
  claimed = false;
  /** A spare's warm-up renders are running. */
  private warming = false;
  /** A shared isolate's next context is being made and warmed (`prepareContext`). */
  private preparing = false;
  /** The warm-up's outcome once it ends: true when it left the isolate usable. */
  private warmedUp: Promise<boolean> = Promise.resolve(true);
  /**
   * Set when a tenant took this isolate: its first render then starts the next spare, at its end
   * or 20 ms into it when it runs long (D357). Not before: building an isolate holds the thread
   * for ~3 ms (the isolate, the runtime from the code cache), which delayed the end of that first
   * render, the one a new tenant waits for.
   */
  spareAfterRender = false;
  /** The spares this isolate was taken from: its first render starts the next one there. */
  sparesFrom: SparePool | null = null;
  /** Set once a render breached a limit: the isolate takes no more work. */
  retired = false;
  renders = 0;
  /** Synchronous slices of this isolate (src/sandbox/sync-slice.ts): renders they finished, renders cut and run again. */
  readonly slices = { done: 0, cut: 0 };
  /** Renders queued or running here: while any is, nothing may measure or dispose this isolate. */
  private pending = 0;
  /** When the last render ended (or the isolate was made), ms since the epoch. */
  lastUsed = Date.now();
  /** Committed heap and external memory at the last measure (`measureHeap`), bytes. */
  heapBytes = 0;
  /** When `heapBytes` was read, `performance.now()`. */
  measuredAt = -Infinity;
  /** `renders` when the last idle collection ran (`reduceMemory`). */
  private reducedAt = 0;
  private canReduce = true;

  /**
   * Warms this isolate as a spare: context, runtime and lockdown, then the built-in warm-up
   * render (src/sandbox/warmup.ts), so the runtime functions most templates call are compiled
   * before a tenant arrives. A failure retires it (and a tenant that took it meanwhile renders
   * elsewhere: `warmingUp`).
   */
  warmAsSpare(): void {
    this.warming = true;
    this.warmedUp = this.warmUp().then(
      () => {
        this.warming = false;
        this.measureHeap();
        return this.usable;
      },
      () => {
        this.warming = false;
        this.retire();
        return false;
      },
    );
    this.queue = this.warmedUp;
  }

  /**
   * While this spare's warm-up runs: whether it will leave the isolate usable. A tenant that took
   * the spare meanwhile waits for it (its render would have queued behind it anyway) and renders
   * on a fresh isolate when the warm-up failed: a spare's failure is not the tenant's (D258).
   */
  warmingUp(): Promise<boolean> | null {
    return this.warming ? this.warmedUp : null;
  }

  /**
   * In an isolate tenants share, with room for another: a warm context for the next tenant, as a
   * spare isolate has one. A new context costs ~15 ms on its first render (the runtime run again,
   * the lockdown, code that has not met the page's data); made here in the background, a step at
   * a time (the context, then each warm-up render), so the group's renders wait behind one step at
   * most. A tenant that takes the context halfway gets it as it is, and the steps stop.
   */
  prepareContext(): void {
    if (this.preparing || this.warming || !this.usable || this.contexts.has('')) return;
    this.preparing = true;
    const step = (i: number): void => {
      const { run } = this.enqueue(
        async () => {
          if (!this.usable || (i > 0 && !this.contexts.has(''))) return false;
          if (i === 0) {
            await this.contextFor('', DEFAULT_LIMITS);
            return true;
          }
          const r = await this.renderNow(warmupTemplate(i - 1), warmupRequest(i - 1), DEFAULT_LIMITS, null, '');
          return !r.error;
        },
        () => {},
      );
      run.then(
        (go) => (go && i < WARMUP_RENDERS ? step(i + 1) : (this.preparing = false)),
        () => (this.preparing = false),
      );
    };
    step(0);
  }

  private async warmUp(): Promise<void> {
    await this.contextFor('', DEFAULT_LIMITS);
    for (let i = 0; i < WARMUP_RENDERS && this.usable && !this.claimed; i++) {
      const r = await this.renderNow(warmupTemplate(i), warmupRequest(i), DEFAULT_LIMITS, null);
      if (r.error) this.retire();
    }
    this.renders = 0;
  }

  constructor(readonly memoryMB: number) {
    requireNoNodeSnapshot();
    this.isolate = new ivm.Isolate({ memoryLimit: memoryMB });
    this.runtime = compileRuntime(this.isolate);
    this.bootstrap = this.isolate.compileScriptSync(BOOTSTRAP, { filename: 'smartcage-bootstrap.js' });
  }

  get disposed(): boolean {
    return this.isolate.isDisposed;
  }

  get usable(): boolean {
    return !this.retired && !this.isolate.isDisposed;
  }

  /**
   * The live context of `tenant` if the next render may use it as it is (else `contextFor` makes a
   * new one). A tenant new to a shared isolate takes over the warm-up's context while no tenant has.
   */
  private reusable(tenant: string): LiveContext | null {
    let live = this.contexts.get(tenant);
    const warm = tenant === '' ? undefined : this.contexts.get('');
    if (!live && warm) {
      this.contexts.delete('');
      warm.tenant = tenant;
      this.contexts.set(tenant, (live = warm));
    }
    return live && live.renders < RENDERS_PER_CONTEXT && live.defined.size < TEMPLATES_PER_CONTEXT ? live : null;
  }

  private async contextFor(tenant: string, limits: SandboxLimits): Promise<LiveContext> {
    const reusable = this.reusable(tenant);
    if (reusable) return reusable;
    this.contexts.get(tenant)?.context.release();
    this.contexts.delete(tenant);
    const context = await this.isolate.createContext();
    // The bound of every synchronous call into it: the embedding process's slices, a sandbox
    // worker's whole renders of host-free templates (D117).
    if (this.watched === undefined) this.watched = await watch(context);
    await this.runtime.run(context, { timeout: limits.cpuMs });
    // An arrow function has no `prototype` for the isolate to walk through the Reference.
    const hostCall = (plugin: string, req: string): Promise<string> =>
      this.active ? this.active(String(plugin), String(req)) : Promise.resolve(NO_RENDER);
    await context.global.set('__hostCall', new ivm.Reference(hostCall));
    // The slice's: the isolate calls it synchronously from the slice, so it answers a string, never a promise.
    // The isolate is trusted with nothing: the host checks the call belongs to a slice it runs.
    const hostCallNow = (plugin: string, req: string): string => {
      const now = this.activeNow;
      if (!now) return NOT_IN_SLICE;
      if (performance.now() >= this.sliceEnds) return SLICE_OVER;
      try {
        return now.call(String(plugin), String(req));
      } catch {
        // The bridge never throws; an observer of the host-call channel might. Nothing is thrown into the isolate.
        return SLICE_OVER;
      }
    };
    await context.global.set('__hostCallNow', new ivm.Reference(hostCallNow));
    const where = new Int32Array(new SharedArrayBuffer(4));
    await context.global.set('__where', new ivm.ExternalCopy(where).copyInto({ release: true }));
    await this.bootstrap.run(context, { timeout: limits.cpuMs });
    const smartcage = (await context.global.get('smartcage', { reference: true })) as ivm.Reference<{
      render: unknown;
      reduceMemory: unknown;
    }>;
    const render = (await smartcage.get('render', { reference: true })) as LiveContext['render'];
    const reduce = (await smartcage.get('reduceMemory', { reference: true })) as LiveContext['reduce'];
    const live: LiveContext = {
      tenant,
      context,
      render,
      reduce,
      defined: new Map(),
      renders: 0,
      lastUsed: Date.now(),
      where,
      cuts: new Map(),
    };
    this.contexts.set(tenant, live);
    return live;
  }

  /**
   * `now`: the render's host calls answered at once (the bridge's `answersNow`), when every host
   * plugin the template can call reads only from an adapter that answers on this thread: then it
   * may take the synchronous slice like a host-free template (D268). Null: only a host-free one may.
   * `tenant`: whose context the render runs in, in an isolate tenants share; '' in a tenant's own.
   */
  render(
    t: CompiledTemplate,
    request: RenderRequestBody,
    limits: SandboxLimits,
    host: HostCallHandler | null,
    now: HostCallsNow | null = null,
    tenant = '',
  ): Promise<RenderResponse> {
    // Nothing queued or running here and the context live: the render starts on this call, not a
    // turn of the queue later. A template that ends in its synchronous slice (most renders in this
    // process, D140) then costs no promise hop, no watchdog timer and no queue entry here.
    const live = this.pending === 0 && !this.warming && this.usable ? this.reusable(tenant) : null;
    // This turn's slices have held the event loop for a slice already (D233): a render that would
    // take one starts in the next turn, so the loop turns between, and it keeps its slice.
    if (live && (t.hostFree === true || now) && limits.syncSliceMs > 0 && !sliceTurnLeft(limits.syncSliceMs))
      return nextTurn().then(() => this.render(t, request, limits, host, now, tenant));
    if (live) {
      // The isolate's own CPU clock (~0.1 µs a read): the template's time, not the host calls'.
      const cpu = this.cpuTime();
      const s = this.start(live, t, request, limits, host, performance.now(), now);
      if (s.result) {
        this.lastUsed = Date.now();
        return Promise.resolve(this.withCpu(this.finish(s), cpu));
      }
      const wallLeft = limits.wallMs - (performance.now() - s.started);
      return this.enqueue(
        async () => this.withCpu(await this.complete(s, this.watch(wallLeft)), cpu),
        () => (this.lastUsed = Date.now()),
      ).run;
    }
    return this.enqueue(
      async () => {
        const cpu = this.cpuTime();
        return this.withCpu(await this.renderNow(t, request, limits, host, tenant), cpu);
      },
      () => (this.lastUsed = Date.now()),
    ).run;
  }

  /** `r` with the isolate's CPU time since `cpu` (cpuTime()), set here over whatever the isolate's answer held. */
  private withCpu(r: RenderResponse, cpu: number): RenderResponse {
    const used = this.cpuTime() - cpu;
    if (typeof r === 'object' && r !== null) {
      if (cpu >= 0 && used >= 0) r.cpuMs = used / 1e6;
      else delete r.cpuMs;
    }
    return r;
  }

  /**
   * Runs `work` after everything queued here; `busy` until it ends. `after` runs once it has
   * ended either way, before `settled` resolves (which never rejects).
   */
  private enqueue<T>(work: () => Promise<T>, after: () => void): { run: Promise<T>; settled: Promise<void> } {
    this.pending++;
    const run = this.queue.then(work);
    const done = () => {
      this.pending--;
      after();
    };
    const settled = run.then(done, done);
    this.queue = settled;
    return { run, settled };
  }

  /**
   * One memory-reducing collection in the live context, after the isolate went idle: queued like a
   * render (nothing else runs meanwhile), and not counted as a use, so the idle rule still sees
   * the last render. Once per idle period (`reducedAt`); never again in an isolate whose process
   * has no `gc` for it (one started without --expose-gc). Runs on isolated-vm's thread, not this one.
   */
  reduceMemory(): Promise<void> | null {
    // The collection is the isolate's: any of its contexts may ask for it.
    const live = this.contexts.values().next().value;
    if (!this.canReduce || this.reducedAt === this.renders || !this.usable || this.busy || !live) return null;
    this.reducedAt = this.renders;
    return this.enqueue(
      async () => {
        if (this.contexts.get(live.tenant) !== live || !this.usable) return;
        if (!(await live.reduce.apply(undefined, [], { timeout: REDUCE_TIMEOUT_MS }))) this.canReduce = false;
      },
      () => this.measureHeap(),
    ).settled;
  }

  /** The isolate's CPU time so far, ns; -1 once it is disposed (it cannot be read then). */
  private cpuTime(): number {
    try {
      return this.isolate.isDisposed ? -1 : Number(this.isolate.cpuTime);
    } catch {
      return -1;
    }
  }

  /** A render is queued or running (a spare's warm-up counts too). */
  get busy(): boolean {
    return this.pending > 0 || this.warming;
  }

  /**
   * A render from its turn of the queue: the context (made if need be), the start, the async call.
   * The host watchdog disposes the isolate at the wall-clock deadline, which also covers a new
   * context's set-up.
   */
  private async renderNow(
    t: CompiledTemplate,
    request: RenderRequestBody,
    limits: SandboxLimits,
    host: HostCallHandler | null,
    tenant = '',
  ): Promise<RenderResponse> {
    if (!this.usable) return retiredBeforeStart();
    // Until the render starts in its context: a failure before (the context's set-up) names no position.
    this.where = NO_POSITION;
    const started = performance.now();
    const watchdog = this.watch(limits.wallMs);
    try {
      let live: LiveContext;
      try {
        live = await this.contextFor(tenant, limits);
      } catch (e) {
        return this.failed(e, limits, watchdog.expired, false, started);
      }
      return await this.complete(this.start(live, t, request, limits, host, started), watchdog);
    } finally {
      clearTimeout(watchdog.timer);
    }
  }

  /**
   * The synchronous part of a render in `live`: its define queued if the template is new there,
   * the request copied, and the synchronous render (a worker's, or this process's slice) where the
   * template allows it. What it answers has `result` set when the render ended here.
   */
  private start(
    live: LiveContext,
    t: CompiledTemplate,
    request: RenderRequestBody,
    limits: SandboxLimits,
    host: HostCallHandler | null,
    started: number,
    now: HostCallsNow | null = null,
  ): Started {
    this.renders++;
    live.renders++;
    // The render's position slot from here on: a failure reports this context's position, never another's.
    this.where = live.where;
    this.where[0] = 0;
    const defining = live.defined.get(t.id) !== t.code;
    const s: Started = {
      live,
      t,
      limits,
      defining,
      started,
      text: null,
      copy: null,
      sync: false,
      result: null,
      cpuMs: limits.cpuMs,
      afterCut: false,
    };
    try {
      if (defining) {
        // Queued, not awaited: isolated-vm runs an isolate's tasks in the order they were
        // scheduled, so the define runs just before the render below, and the render's answer
        // tells whether it took. That saves a round trip to the isolate's thread (~80 µs of a new
        // template's first output). The script is released once it has run: what a tenant that
        // keeps editing its templates leaves behind stays bounded by TEMPLATES_PER_CONTEXT.
        // A tenant's first render on this isolate (a spare just taken, or a new one) compiles its
        // template on the isolate's thread, in the same queued task as the define: the first call
        // into an isolate that sat idle costs 0.1-6 ms on this thread whatever it does (D291),
        // more than the code cache saves; later defines take the cache here (D252, D292).
        if (this.spareAfterRender && !this.warming)
          live.context.evalIgnored(t.code, { filename: t.filename, timeout: limits.cpuMs });
        else
          templateCodeCache
            .compile(this.isolate, t.code, t.filename)
            .runIgnored(live.context, { timeout: limits.cpuMs, release: true });
        live.defined.set(t.id, t.code);
      }
      this.active = host;
      // Not released at its first use: a render cut at the end of its slice takes a second copy.
      const req = withLimits(withTables(request), limits);
      s.text = requestText(req);
      const external = ivm.ExternalCopy.totalExternalSize;
      if (s.text === null) s.copy = new ivm.ExternalCopy(req);
      const copyBytes = ivm.ExternalCopy.totalExternalSize - external;
      // In a sandbox worker, a template that cannot call the host and is defined already renders
      // synchronously: no hop to the isolate's thread and back (docs/decisions.md D117). The
      // wall-clock timer cannot fire while this thread is held, so the call's bound is the nearer
      // deadline.
      s.sync = syncRender !== null && t.hostFree === true && !defining;
      if (s.sync && syncRender) {
        // The render also stops itself at the same deadline (D187), without waiting for
        // isolated-vm's timer thread; it then answers `overSlice`, read as the timeout it stands for.
        const deadline = Math.min(limits.cpuMs, limits.wallMs);
        const result = syncRender(
          live.render,
          [t.id, requestArg(s), 0, false, deadline],
          deadline,
          this.watched ?? null,
        );
        if (result.overSlice) throw new Error(CUT_AS_TIMEOUT);
        s.result = result;
        // In this process the same template first gets a bounded synchronous slice, then the
        // async path from the start with what is left of its CPU time (src/sandbox/sync-slice.ts, D140);
        // one that may call the host too when its calls are answered at once (`now`, D268).
      } else if (
        syncRender === null &&
        (t.hostFree === true || now !== null) &&
        !defining &&
        copyBytes <= MAX_SLICE_VARS_BYTES &&
        this.maySlice(live, t.id, limits)
      ) {
        const hostNow = t.hostFree !== true && now !== null;
        let slice;
        try {
          // Open for this slice alone: the slice's host function answers nothing before or after.
          this.activeNow = hostNow ? now : null;
          const t0 = performance.now();
          this.sliceEnds = t0 + sliceTimeoutMs(limits.syncSliceMs);
          slice = renderInSlice(
            live.render,
            t.id,
            requestArg(s),
            limits.syncSliceMs,
            hostNow,
            t0,
            this.watched ?? null,
          );
        } finally {
          this.activeNow = null;
          this.sliceEnds = 0;
        }
        // Its reads counted against the render's caps are forgotten: the render starts again.
        if (!slice.done && hostNow) now.restart();
        if (slice.done) {
          s.result = slice.response;
          this.slices.done++;
          this.fitSlice(live, t.id);
        } else {
          this.slices.cut++;
          s.cpuMs = Math.max(1, s.cpuMs - Math.ceil(slice.heldMs));
          s.afterCut = true;
          this.where[0] = 0;
        }
        if (!slice.done || slice.heldMs > 2 * limits.syncSliceMs) this.cutSlice(live, t.id);
      }
    } catch (e) {
      s.result = this.failed(e, limits, false, s.sync, started);
    }
    return s;
  }

  /** The rest of a render `start` did not end: the async call, under the watchdog; then `finish`. */
  private async complete(s: Started, watchdog: Watchdog): Promise<RenderResponse> {
    if (!s.result) {
      // Made here, not by an immediate: an unref'd immediate would wait for the render's end (D357).
      const early =
        this.spareAfterRender && !this.warming ? setTimeout(() => this.nextSpare(true), EARLY_SPARE_MS) : null;
      early?.unref();
      try {
        s.result = responseOf(
          (await s.live.render.apply(undefined, [s.t.id, requestArg(s), 0, s.afterCut], {
            timeout: s.cpuMs,
            result: { copy: true },
          })) as RenderAnswer,
        );
      } catch (e) {
        s.result = this.failed(e, s.limits, watchdog.expired, false, s.started);
      } finally {
        clearTimeout(watchdog.timer);
        if (early) clearTimeout(early);
      }
    }
    return this.finish(s);
  }

  /**
   * The next spare of this class, started by this taken spare's first render (a new tenant, or this
   * one after a limit, then finds one ready): at its end, or `now` while it runs long (D357). Not
   * by a claimed spare's warm-up render still in flight: the tenant's own render follows it (D258).
   */
  private nextSpare(now: boolean): void {
    if (!this.spareAfterRender || this.warming) return;
    this.spareAfterRender = false;
    this.sparesFrom?.prepare(this.memoryMB, now);
  }

  /** After the render's answer (or failure): what it tells about the isolate and context, and the clean-up. */
  private finish(s: Started): RenderResponse {
    s.copy?.release();
    s.live.lastUsed = Date.now();
    this.active = null;
    this.nextSpare(false);
    const result = s.result!;
    if (s.defining && result.error?.code === 'E_TEMPLATE_NOT_LOADED') {
      // Its define failed (it threw, or ran out of time): the context may hold half of it.
      this.dropContext(s.live);
      return sandboxError('E_SANDBOX_CRASHED', 'the template could not be loaded into the sandbox');
    }
    // Disposed once the answer is out: an output-limit render can leave hundreds of MB to free.
    if (result.error && /^E_(SIZE|OUTPUT|RECURSION)_LIMIT$/.test(result.error.code)) this.retireSoon();
    else if (result.contextTainted) this.dropContext(s.live);
    return result;
  }

  /**
   * What a call into the isolate that threw means. The call has ended (nothing runs in the
   * isolate any more): it takes no more work now, and is disposed after this error is on its way
   * (disposing a big heap costs a few ms).
   */
  private failed(e: unknown, limits: SandboxLimits, wallExpired: boolean, sync: boolean, started: number) {
    this.retireSoon();
    // Read after the isolate stopped: the last position the template recorded.
    const at = this.where[0];
    const failure = classifyIsolateError(e);
    if (wallExpired || (sync && performance.now() - started >= limits.wallMs))
      return sandboxError(
        'E_WALL_TIMEOUT',
        `the render did not finish within ${limits.wallMs} ms of wall-clock time`,
        at,
      );
    if (failure === 'cpu-timeout')
      return sandboxError('E_CPU_TIMEOUT', `the render used more than ${limits.cpuMs} ms of CPU time`, at);
    if (failure === 'memory-limit' || failure === 'disposed')
      return sandboxError('E_MEMORY_LIMIT', `the render needed more than the ${this.memoryMB} MB memory limit`, at);
    return sandboxError('E_SANDBOX_CRASHED', 'the sandbox failed while rendering');
  }

  /** The wall-clock watchdog of an async render: it retires the isolate `ms` from now. */
  private watch(ms: number): Watchdog {
    const w: Watchdog = {
      expired: false,
      timer: setTimeout(
        () => {
          w.expired = true;
          this.retire();
        },
        Math.max(0, ms),
      ),
    };
    return w;
  }

  /** Whether template `id` gets a synchronous slice now (not while it waits out an earlier cut). */
  private maySlice(live: LiveContext, id: string, limits: SandboxLimits): boolean {
    if (!(limits.syncSliceMs > 0) || !sliceTurnLeft(limits.syncSliceMs)) return false;
    const cut = live.cuts.get(id);
    if (!cut || cut.wait === 0) return true;
    cut.wait--;
    return false;
  }

  /** Template `id` did not fit its slice: the next renders of it go asynchronously. */
  private cutSlice(live: LiveContext, id: string): void {
    const backoff = Math.min(2 * (live.cuts.get(id)?.backoff ?? 4), 1024);
    live.cuts.set(id, { backoff, wait: backoff });
  }

  /**
   * Template `id` fitted its slice: an earlier cut weighs half as much. On a loaded machine a
   * render that fits is cut now and then (its thread was not scheduled for the slice's length),
   * and a backoff that only grew would keep such a template asynchronous for good.
   */
  private fitSlice(live: LiveContext, id: string): void {
    const cut = live.cuts.get(id);
    if (!cut) return;
    if (cut.backoff <= 8) live.cuts.delete(id);
    else cut.backoff >>= 1;
  }

  /** Its tenant's next render gets a new context (this one was changed where the lockdown does not freeze). */
  private dropContext(live: LiveContext): void {
    live.context.release();
    if (this.contexts.get(live.tenant) === live) this.contexts.delete(live.tenant);
  }

  /**
   * In a shared isolate, releases the contexts of tenants with no render for `idleMs`, and
   * forgets them as its tenants (their place goes to another of the group), with the tenants
   * given to it that hold no context (their renders failed before they made one). Not while it
   * is busy: a tenant's first render may then still be on its way to its context.
   */
  dropIdleTenants(idleMs: number, now = Date.now()): number {
    if (this.busy) return 0;
    let n = 0;
    for (const live of [...this.contexts.values()]) {
      if (live.tenant === '' || now - live.lastUsed < idleMs) continue;
      this.dropContext(live);
      this.tenants.delete(live.tenant);
      n++;
    }
    for (const tenant of this.tenants) if (!this.contexts.has(tenant)) this.tenants.delete(tenant);
    return n;
  }

  /**
   * Takes no more work now; disposed after the current work of the event loop, so that an
   * answer on its way is not held up by it (disposing a big heap costs milliseconds).
   */
  retireSoon(): void {
    this.retired = true;
    this.active = null;
    setImmediate(() => this.retire());
  }

  /**
   * Resolves once nothing queued here is left to settle: after `retire`, the renders and warm-up
   * steps the dispose cut short have had their answers. isolated-vm ends a disposed isolate's work
   * on its own threads, and a process that exits before that crashed (SIGSEGV) in about half of
   * short runs (D351).
   */
  async settled(): Promise<void> {
    for (let q = this.queue; ; q = this.queue) {
      await q.then(noop, noop);
      if (q === this.queue) return;
    }
  }

  /** Stops using this isolate; it is disposed so that nothing it still runs can continue. */
  retire(): void {
    this.retired = true;
    this.active = null;
    if (this.watched) unwatch(this.watched);
    this.watched = null;
    if (!this.isolate.isDisposed) this.isolate.dispose();
  }

  /**
   * The isolate's committed heap and external memory, bytes, read now if nothing runs in it
   * (isolated-vm's sync read takes the isolate's lock: ~5 µs when idle, but it would wait for a
   * running render to end), else the last value read. The async read is no way around that: it
   * is answered only once the running render has ended.
   */
  measureHeap(): number {
    if (!this.usable) return (this.heapBytes = 0);
    if (this.busy) return this.heapBytes;
    const h = this.isolate.getHeapStatisticsSync();
    this.measuredAt = performance.now();
    return (this.heapBytes = h.total_heap_size + h.externally_allocated_size);
  }
}

/** The request of render `s` as the runtime's `render` takes it: its text, or a new copy of its clone (D299). */
function requestArg(s: Started): RequestArg {
  return s.text ?? s.copy!.copyInto();
}

/**
 * isolated-vm on Node 20+ needs the process started with --no-node-snapshot; without it the
 * process may crash later, at random (docs/security.md OPS-01). Refuse to start instead.
 */
export function requireNoNodeSnapshot(): void {
  const given =
    process.execArgv.includes('--no-node-snapshot') ||
    /(^|\s)--no-node-snapshot(\s|$)/.test(process.env.NODE_OPTIONS ?? '');
  if (!given) {
    throw new TemplateError({
      code: 'E_SANDBOX_SETUP',
      message:
        'start Node with --no-node-snapshot to run templates in this process (workers: 0): isolated-vm needs it on Node 20 and later; the default worker processes get it themselves',
      name: 'smartcage',
      line: 0,
      column: 0,
      frame: '',
    });
  }
}

/** Answers of renders that found their isolate retired when their turn came (`wasRetiredBeforeStart`). */
const notStarted = new WeakSet<RenderResponse>();

function retiredBeforeStart(): RenderResponse {
  const r = sandboxError('E_SANDBOX_CRASHED', 'the sandbox was retired before the render started');
  notStarted.add(r);
  return r;
}

/**
 * Whether `r` is the answer of a render that never started: its isolate was retired (a render
 * queued before it breached a limit) when its turn came. Such a render may run elsewhere: in an
 * isolate tenants share, that was another tenant's render (D342).
 */
export function wasRetiredBeforeStart(r: RenderResponse): boolean {
  return notStarted.has(r);
}

/** A render that failed in the sandbox itself, not in the template. */
export function sandboxError(code: ErrorCode, message: string, at?: number): RenderResponse {
  return { error: { code, message, stack: '', ...(at ? { at } : {}) } };
}

/** The synchronous render of a sandbox worker (src/sandbox/sync-render.ts), installed by the worker alone. */
let syncRender: SyncRender | null = null;

/**
 * Lets renders of templates that cannot call the host run synchronously in this process: only a
 * sandbox worker calls it (src/sandbox/worker-main.ts), never the embedding process (docs/decisions.md D117).
 */
export function allowSyncRenders(f: SyncRender): void {
  syncRender = f;
}

/**
 * Warm spare isolates, at most one per memory class, of one owner: the IsolateCache of a sandbox
 * worker or of an engine with `workers: 0`. Never the module's: two engines in one process share
 * no isolate, spare or not (D159).
 */
export class SparePool {
  private readonly spares = new Map<number, IsolateHost>();
  /** Spares about to be made (`prepare`), so that `close` can call them off. */
  private readonly starting = new Set<NodeJS.Immediate>();
  private closed = false;

  /**
   * An isolate for a tenant: the warm spare of this memory class if there is one, else a new
   * one. The next spare starts once this isolate's first render is done (or has run 20 ms, D357),
   * so that a new tenant, or a tenant whose isolate was retired after a limit, does not pay for a
   * new isolate and context (about 20 ms, more under load) in its first render: the spare warms
   * while renders run.
   */
  acquire(memoryMB: number): IsolateHost {
    const spare = this.spares.get(memoryMB);
    this.spares.delete(memoryMB);
    const host = spare?.usable ? spare : new IsolateHost(memoryMB);
    // A spare still being built skips its warm-up render: the tenant's own render follows.
    host.claimed = true;
    host.spareAfterRender = true;
    host.sparesFrom = this;
    return host;
  }

  /**
   * Starts warming a spare isolate of this class, unless one exists: after the current work of the
   * event loop, or `now` (from a timer, where an unref'd immediate would wait for the I/O the loop
   * polls for next).
   */
  prepare(memoryMB: number, now = false): void {
    if (this.closed || this.spares.has(memoryMB)) return;
    if (now) return this.make(memoryMB);
    const timer = setImmediate(() => {
      this.starting.delete(timer);
      this.make(memoryMB);
    });
    timer.unref();
    this.starting.add(timer);
  }

  private make(memoryMB: number): void {
    if (this.closed || this.spares.has(memoryMB)) return;
    try {
      const spare = new IsolateHost(memoryMB);
      this.spares.set(memoryMB, spare);
      spare.warmAsSpare();
    } catch {
      // No spare: the next tenant that needs an isolate makes one itself.
    }
  }

  /** Whether a spare of this class exists, ready or warming (for tests of when spares start). */
  has(memoryMB: number): boolean {
    return this.spares.has(memoryMB);
  }

  /**
   * Disposes the spares and makes no more (a worker process that shuts down, an engine that
   * closes); resolves once the warm-ups it cut short have settled (`IsolateHost.settled`).
   */
  close(): Promise<void> {
    return settleAll(this.retireAll());
  }

  /**
   * Makes no more spares and disposes those it has, which it gives back: for an owner that waits
   * for them together with its own isolates (`settleAll`), as `close` does for them alone.
   */
  retireAll(): IsolateHost[] {
    this.closed = true;
    for (const t of this.starting) clearImmediate(t);
    this.starting.clear();
    const spares = [...this.spares.values()];
    this.spares.clear();
    for (const s of spares) s.retire();
    return spares;
  }

  /**
   * Disposes the idle spares of the classes above `aboveMB` made at least `idleMs` ago (all of
   * them with 0). The spare of the default class stays: most new tenants need it.
   */
  drop(aboveMB: number, idleMs: number, now = Date.now()): number {
    let dropped = 0;
    for (const [mb, s] of this.spares) {
      if (mb <= aboveMB || s.busy || now - s.lastUsed < idleMs) continue;
      this.spares.delete(mb);
      s.retire();
      dropped++;
    }
    return dropped;
  }

  /** The spares' committed heap, bytes: of the classes above `aboveMB` (all with 0). */
  heapBytes(aboveMB = 0): number {
    let bytes = 0;
    // As measured when its warm-up ended: an idle spare does not grow.
    for (const [mb, s] of this.spares) if (mb > aboveMB && s.usable) bytes += s.heapBytes;
    return bytes;
  }
}

/**
 * Resolves once every host's queued work has settled (`IsolateHost.settled`), or after
 * SETTLE_MAX_MS: a close must end even if some work never does (as the pool kills a worker
 * still there 2 s after it was asked to finish). Then SETTLE_GRACE_MS more: a settled promise is
 * not the end of an isolate's work on isolated-vm's threads, which give no signal of their own
 * (D351).
 */
export async function settleAll(hosts: Iterable<IsolateHost>): Promise<void> {
  const list = [...hosts];
  if (list.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, SETTLE_MAX_MS);
    timer.unref();
  });
  await Promise.race([Promise.all(list.map((h) => h.settled())), late]);
  clearTimeout(timer);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_GRACE_MS));
}
