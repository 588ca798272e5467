/**
 * createEngine(): the library's entry point, where the layers meet (docs/architecture.md). It
 * compiles templates through the compile cache (src/compiled-templates.ts: small ones inline,
 * large ones on the compile thread), sends each render to the tenant's isolate of the template's
 * memory class, in a sandbox worker process (src/sandbox/pool.ts) or, with `workers: 0`, in this
 * process, with a host bridge made for the render's identity (src/bridge/bridge.ts), and
 * turns the answer into a result or a TemplateError at the template's line. Nothing but a
 * TemplateError leaves it (`guarded`).
 */
import { createHash, randomFillSync } from 'node:crypto';
import { compile, type CompileResult } from './compiler/index.js';
import {
  CompiledTemplates,
  checkedDefaultModifiers,
  scriptName,
  type Compiled,
  type SourceLookup,
} from './compiled-templates.js';
import { TemplateError, SourceText, type Diagnostic } from './errors.js';
import { requireNoNodeSnapshot } from './sandbox/isolate-host.js';
import type { RenderResponse } from './protocol/render.js';
import { isErrorCode, type ErrorCode } from './protocol/error-codes.js';
import { TenantIsolates } from './sandbox/isolate-cache.js';
import { SandboxPool, DEFAULT_POOL, type PoolOptions, type PoolSnapshot } from './sandbox/pool.js';
import { createBridge, type HostErrorReport } from './bridge/bridge.js';
import { cancelled } from './host-api/render-signal.js';
import { HostState } from './bridge/host-state.js';
import type { HostOption, RenderIdentity } from './host-api/host.js';
import { DEFAULT_LIMITS, type SandboxLimits } from './sandbox/limits.js';
import { renderRequest } from './sandbox/request.js';
import { registerHostState, registerRawJsRender } from './engine-internal.js';
import { enginePlugins, rememberPlugins } from './engine-plugins.js';
import type { PluginDefinition } from './bridge/embedder-plugins.js';
import { publishTemplateLogs, renderChannel, traceRender, type RenderEvent } from './diagnostics.js';
import type { LogLine } from './protocol/log.js';
import { SITE_DEFAULTS } from './site-defaults.js';

export type { SourceLookup };

export interface EngineOptions {
  /**
   * Stored templates for {include}: name -> source. A Record is shared by every tenant; a lookup
   * gets the identity of the render it compiles for, and an engine that serves several tenants
   * must use one to keep each tenant to its own templates (compiled code is then cached per tenant).
   */
  templates?: Record<string, string> | SourceLookup;
  /** Stored custom functions for {function name=... | id=...}: identifier or id -> source; as `templates`. */
  functions?: Record<string, string> | SourceLookup;
  /** CPU time per render, ms (default 1000). */
  timeoutMs?: number;
  /** Site time zone and language (default SITE_DEFAULTS: Asia/Tokyo, ja). */
  timezone?: string;
  lang?: string;
  /** The site's root URL (ROOT_URL), default SITE_DEFAULTS.rootUrl (http://localhost). */
  rootUrl?: string;
  /** Host constants for $smarty.const (SITE_KEY, ROOT_URL...). */
  constants?: Record<string, unknown>;
  /** Fixed clock for tests: Unix seconds. */
  now?: () => number;
  /** Fixed random seed (16 bytes) for reproducible renders in tests; random per render otherwise. */
  seed?: readonly number[];
  /** Limits of every render (CPU and wall time, output, host calls...). */
  limits?: Partial<SandboxLimits>;
  /**
   * The host adapters privileged plugins use (secrets, HTTP, files, mail...): one HostAdapters
   * for every render, or a HostResolver that gives each render the adapters of its tenant
   * (asked once per render, at its first host call; docs/embedding.md "Host adapters").
   */
  host?: HostOption;
  /**
   * Sandbox worker processes (default 2). Template code then never runs in this process, and a
   * crash takes only a worker. 0 runs isolates in this process: for tests and one-off tools only.
   */
  workers?: number;
  /**
   * Scheduling of the worker pool (per-tenant concurrency, memory admission, quarantine), when
   * isolates go (`isolate*`) and how many tenants of a group share one (`tenantsPerIsolate`), also
   * with workers: 0.
   */
  pool?: Partial<PoolOptions>;
  /**
   * The isolate group of a render's tenant, asked at each render with its identity when
   * `pool.tenantsPerIsolate` is above 1: tenants of one group then share isolates of the default
   * memory class, a context each, and so their memory, thread and fate (docs/decisions.md D342). Give one
   * group only to tenants that may slow and fill each other, e.g. one customer's sites; undefined
   * (the default): the tenant's isolates are its own. Never take it from a tenant's own settings.
   * It may throw: the render fails E_INTERNAL.
   */
  isolateGroup?: (identity: RenderIdentity) => string | undefined;
  /**
   * The embedder's own tags and modifiers (definePlugin; docs/plugins-for-embedders.md): declared
   * as the built-in ones are, run on the host behind the bridge. A name of the language is refused here.
   */
  plugins?: readonly PluginDefinition[];
  /**
   * A host plugin (the engine's own or built-in) or an adapter threw something without one of
   * our codes: the template gets E_HOST_FAILED and nothing more; this gets what was thrown, for
   * the embedder's log. It is the error as thrown: it may hold whatever the plugin held.
   */
  onHostError?: HostErrorReport;
  /**
   * For an engine shared by several sites: the settings of the render's tenant, asked at each
   * render with its identity. What it gives replaces `timezone`, `lang`, `rootUrl`, `constants`
   * and `host` for that render; with `templates` and `functions` lookups (which get the identity
   * too) every tenant keeps to its own site. It may throw (an unknown tenant): the render fails
   * E_INTERNAL. `close()` does not close a tenant's host: its owner does.
   */
  tenant?: (identity: RenderIdentity) => TenantSettings;
  /**
   * Smarty 2's `$default_modifiers`, e.g. `['escape:"html"']`: put before the own modifiers of
   * every variable a template uses as a value (printed, an attribute, an {if} operand, a modifier
   * argument), unless its chain has `|smarty:nodefaults`. None by default (docs/decisions.md D134).
   */
  defaultModifiers?: readonly string[];
  /**
   * The least memory class of every render, MB (default 128): a site's batch engine runs its
   * batches in the class site.json `batch_limits.memory` names; a template's {set_memory} may still ask for more.
   */
  memoryClass?: 128 | 256 | 512 | 768;
}

/** What an engine takes per tenant instead of once (EngineOptions.tenant). */
export type TenantSettings = Pick<
  EngineOptions,
  'timezone' | 'lang' | 'rootUrl' | 'constants' | 'host' | 'defaultModifiers'
>;

export interface RenderOptions {
  name?: string;
  /** Who the render runs for: tenant, member, context. Each tenant gets isolates of its own. */
  identity?: Partial<RenderIdentity>;
  /** Variables: plain data, or JSON text (keeps PHP's key order for integer-like keys). */
  vars?: Record<string, unknown> | string;
  /** Turn JSON objects in vars into stdClass objects instead of arrays. */
  objects?: boolean;
  /** $smarty.get / post / request / session / server. */
  request?: Record<string, unknown>;
  /** Validation (dry-run) mode: $smarty.rcms_validate is true. */
  validate?: boolean;
  /**
   * The value of {return} as JSON text (`RenderResult.returnJson`), made in the isolate, instead of
   * as data: for a caller that sends it on as JSON (an API endpoint), it saves copying the value
   * out of the isolate and walking it again here.
   */
  returnJson?: boolean;
  /**
   * Aborting it cancels the render (`smartcage batch cancel`): the host work its plugins run stops
   * (the render's AbortSignal, D152) and its next host call fails E_CANCELLED, which ends the
   * render. Template code that makes no host call runs on until its CPU limit.
   */
  signal?: AbortSignal;
}

export interface RenderResult {
  output: string;
  /** The render's warnings as text; each is also in `diagnostics` (W_RUNTIME), with its line and column. */
  warnings: string[];
  /** Lines written by {logger} and other plugins. */
  logs: LogLine[];
  /** The value of {return value=...}, as plain data (null when it came as `returnJson`). */
  returnValue: unknown;
  /**
   * With `RenderOptions.returnJson`: JSON.stringify of the value, as the isolate wrote it. Absent
   * when the value has no JSON text (an int past 2^53): then it is `returnValue`.
   */
  returnJson?: string;
  /** The compile's warnings, then the render's (W_RUNTIME). */
  diagnostics: Diagnostic[];
}

/** What an engine holds and does now. With workers: 0, `queued`, `running` and `crashes` stay 0. */
export type EngineStats = PoolSnapshot;

export interface Engine {
  /**
   * Compiles without rendering (tools: checks, the compile command). Synchronous: it runs on the
   * calling thread and blocks it for as long as the compile takes (a 1 MB template: 1-2 s), so a
   * server renders with render(), which compiles big templates on the compile thread. Includes
   * are looked up for `identity` (default: tenant "default").
   */
  compile(source: string, opts?: { name?: string; identity?: Partial<RenderIdentity> }): CompileResult;
  render(source: string, opts?: RenderOptions): Promise<RenderResult>;
  /**
   * The request `requestId` of `tenant` (default "default") has ended: the values its renders kept
   * with {assign_globals} go now rather than after the idle expiry. A render without a request id
   * of the embedder's is a request of its own, ended with the render.
   */
  endRequest(identity: { tenant?: string; requestId: string }): void;
  /** Process ids of the sandbox workers (empty with workers: 0). */
  pids(): number[];
  /** Counts for metrics, read now: workers, isolates held and evicted, renders queued and running (docs/observability.md). */
  stats(): EngineStats;
  /**
   * Stops the engine: renders still running fail E_ENGINE_CLOSED, renders asked for later fail at
   * once. Resolves once its isolates' disposal, its workers and its compile thread have ended;
   * await it before `process.exit`, or the exit may crash in isolated-vm's threads (D351).
   */
  close(): Promise<void>;
}

export function createEngine(options: EngineOptions = {}): Engine {
  // First: a plugin list that is wrong throws before any worker starts.
  const own =
    options.plugins === undefined || (Array.isArray(options.plugins) && options.plugins.length === 0)
      ? undefined
      : enginePlugins(options.plugins);
  const defaultModifiers = checkedDefaultModifiers(options.defaultModifiers, own?.compile.set);
  const workers = options.workers ?? DEFAULT_POOL.workers;
  const perIsolate = options.pool?.tenantsPerIsolate ?? DEFAULT_POOL.tenantsPerIsolate;
  if (!Number.isInteger(perIsolate) || perIsolate < 1 || perIsolate > MAX_TENANTS_PER_ISOLATE)
    throw new TypeError(
      `smartcage: createEngine({ pool: { tenantsPerIsolate } }) takes a whole number from 1 to ${MAX_TENANTS_PER_ISOLATE}, not ${String(perIsolate)}`,
    );
  // In-process isolates need the flag: say so when the engine is made, not at its first render.
  if (workers === 0) requireNoNodeSnapshot();
  const pool = workers > 0 ? new SandboxPool({ ...options.pool, workers }) : null;
  // workers: 0: the tenants' isolates live in this process, kept by the rules of a worker's.
  const sandbox = pool ?? inProcessIsolates(options.pool);
  const limits: SandboxLimits = {
    ...DEFAULT_LIMITS,
    ...(options.timeoutMs ? { cpuMs: options.timeoutMs } : {}),
    ...options.limits,
  };
  const templates = new CompiledTemplates(options.templates, options.functions, limits, own?.compile, defaultModifiers);
  const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
  // A tenant's own default modifiers, checked once per distinct list (a bad one fails that tenant's renders).
  const checkedLists = new Map<string, readonly string[]>();
  const tenantDefaults = (set: TenantSettings | undefined): readonly string[] => {
    const list = set?.defaultModifiers;
    if (list === undefined) return defaultModifiers;
    const key = JSON.stringify(list);
    let checked = checkedLists.get(key);
    if (!checked) {
      try {
        checked = checkedDefaultModifiers(list, own?.compile.set);
      } catch (e) {
        throw unplacedError(
          'E_DEFAULT_MODIFIERS',
          (e as Error).message.replace('createEngine({ defaultModifiers })', "the site's default modifiers"),
          'defaultModifiers',
        );
      }
      checkedLists.set(key, checked);
    }
    return checked;
  };
  // This engine's request globals and response caches: another engine's tenants never see them (D159).
  const hostState = new HostState();
  // Set by close(): a render asked for after it fails at once, one still running fails E_ENGINE_CLOSED.
  let closed = false;

  const engine = guarded({
    compile(source, opts = {}) {
      return templates.compileNow(source, opts.name, identityOf(opts.identity));
    },

    render(source, opts = {}) {
      const name = opts.name ?? 'template';
      const identity = identityOf(opts.identity);
      if (!renderChannel.hasSubscribers) return renderSource(source, name, identity, opts);
      const event: RenderEvent = {
        tenant: identity.tenant,
        template: name,
        requestId: identity.requestId,
        context: identity.context,
      };
      return traceRender(event, () =>
        renderSource(source, name, identity, opts, event).catch((e: unknown) =>
          Promise.reject(asTemplateError(e, name)),
        ),
      );
    },

    close() {
      closed = true;
      // The one host resource an engine starts: the browser of {generate_pdf} (started again on next use).
      // A resolver's adapters are its owner's to close.
      const browser = typeof options.host === 'object' ? options.host.browser?.close?.().catch(() => {}) : undefined;
      return Promise.all([templates.close(), sandbox.close(), browser]).then(() => {});
    },

    pids() {
      return pool ? pool.pids() : [];
    },

    stats() {
      if (sandbox instanceof SandboxPool) return sandbox.snapshot();
      const { isolates, evicted } = sandbox.report();
      return { workers: 0, isolates, evicted, queued: 0, running: 0, crashes: 0 };
    },

    endRequest(identity) {
      hostState.requestGlobals.endRequest(identity.tenant ?? 'default', identity.requestId);
    },
  });
  rememberPlugins(engine, options.plugins ?? []);
  registerHostState(engine, hostState);
  registerRawJsRender(engine, (body, opts) => {
    const name = opts.name ?? 'raw.js';
    return renderRawJs(body, name, opts).catch((e: unknown) => Promise.reject(asTemplateError(e, name)));
  });
  return engine;

  /** Not an async function: a cache hit goes straight on to the render, without a turn of its own. */
  function renderSource(
    source: string,
    name: string,
    identity: RenderIdentity,
    opts: RenderOptions,
    event?: RenderEvent,
  ): Promise<RenderResult> {
    try {
      if (source.length > limits.maxTemplateBytes) {
        throw unplacedError(
          'E_TEMPLATE_TOO_LARGE',
          `the template is larger than ${limits.maxTemplateBytes} bytes`,
          name,
        );
      }
      // The tenant's settings, asked once per render (EngineOptions.tenant).
      const set = options.tenant?.(identity);
      const got = templates.get(source, name, identity, tenantDefaults(set));
      return got instanceof Promise
        ? got.then((c) => runCompiled(c, name, identity, opts, event, set))
        : runCompiled(got, name, identity, opts, event, set);
    } catch (e) {
      return Promise.reject(e as Error);
    }
  }

  /** The security harness's raw render (src/engine-internal.ts): `body` as a compiled template's function. */
  async function renderRawJs(body: string, name: string, opts: RenderOptions): Promise<RenderResult> {
    const id = `${name}#${digest(body)}`;
    const code = `smartcage.define(${JSON.stringify(id)}, (rt) => function t0(s, $) {\n${body}\n});\n`;
    const { manifest, diagnostics } = compile('', { name, id });
    const c: Compiled = {
      id,
      manifest,
      diagnostics,
      lineTable: new Int32Array(0),
      sources: [new SourceText(name, body)],
      deps: [],
      template: { id, code, filename: scriptName(id) },
    };
    return runCompiled(c, name, identityOf(opts.identity), opts);
  }

  /** `event`: the render's diagnostics event (src/diagnostics.ts), when someone listens. */
  async function runCompiled(
    c: Compiled,
    name: string,
    identity: RenderIdentity,
    opts: RenderOptions,
    event?: RenderEvent,
    tenantSet?: TenantSettings,
  ): Promise<RenderResult> {
    // Here, not at render(): a render whose compile was waiting when the engine closed would
    // otherwise make an isolate, or start a worker, that nothing closes.
    if (closed) throw unplacedError('E_ENGINE_CLOSED', 'the engine is closed', name);
    const tenant = identity.tenant;
    // One clock for the isolate and the host: an open check on the host sees the render's $smarty.now.
    const now = options.now ? options.now() : Math.floor(Date.now() / 1000);
    const set: TenantSettings = tenantSet ?? (options.tenant ? options.tenant(identity) : options);
    // Asked before the bridge is made: a group function that throws leaves nothing to end. Not
    // asked when no isolate is shared (tenantsPerIsolate 1): no render would use its answer.
    const group = perIsolate > 1 ? options.isolateGroup?.(identity) : undefined;
    const site = {
      timezone: set.timezone ?? SITE_DEFAULTS.timezone,
      lang: set.lang ?? SITE_DEFAULTS.lang,
      rootUrl: set.rootUrl ?? SITE_DEFAULTS.rootUrl,
    };
    const request = renderRequest({
      templateName: name,
      now,
      site,
      validate: opts.validate,
      vars: opts.vars ?? null,
      objects: opts.objects,
      request: opts.request,
      constants: set.constants,
      seed: options.seed ?? pooledSeed(),
      returnJson: opts.returnJson,
    });
    const facts = c.manifest.identity;
    const fromVariable = facts.fromVariables[0];
    if (fromVariable && !identity.superUser) {
      const src = c.sources.find((x) => x.name === fromVariable.template) ?? c.sources[0];
      throw new TemplateError({
        code: 'E_IDENTITY_DENIED',
        message: `${fromVariable.attr} comes from a variable here; only a render for a super user may do that (write the member id as a number)`,
        name: src.name,
        line: fromVariable.line,
        column: fromVariable.column,
        frame: src.frame(fromVariable.line, fromVariable.column),
      });
    }
    // In this process a template that calls no host plugin renders without a bridge (D300): its
    // isolate's host functions answer E_BRIDGE_CLOSED to a call, which no compiled code makes.
    // A worker's calls cross to this process's bridge whatever the template, so one is made there.
    const bridge =
      sandbox instanceof TenantIsolates && c.template.hostFree === true
        ? null
        : createBridge(
            set.host ?? {},
            identity,
            limits,
            facts,
            { now, timezone: site.timezone, lang: site.lang },
            { plugins: own?.table, onHostError: options.onHostError, state: hostState },
          );
    const memoryMB = Math.max(c.manifest.memoryMB, options.memoryClass ?? 128);
    if (event) event.memoryMB = memoryMB;
    const cancel = opts.signal;
    const onCancel = () => bridge?.end(cancelled());
    let handler = bridge?.handler ?? null;
    // In this process, a template whose host calls are all reads answered at once may take the
    // synchronous slice (D268); a worker's calls cross to this process, so never there.
    let callsNow =
      bridge && sandbox instanceof TenantIsolates && limits.syncSliceMs > 0 && c.template.hostFree !== true
        ? bridge.answersNow(c.manifest.host)
        : null;
    if (cancel && bridge) {
      cancel.addEventListener('abort', onCancel, { once: true });
      const cancelledAnswer = () =>
        JSON.stringify({ ok: false, error: { code: 'E_CANCELLED', message: cancelled().message } });
      handler = (kind, request) =>
        cancel.aborted ? Promise.resolve(cancelledAnswer()) : bridge.handler(kind, request);
      const answersNow = callsNow;
      if (answersNow)
        callsNow = {
          call: (kind, request) => (cancel.aborted ? cancelledAnswer() : answersNow.call(kind, request)),
          restart: () => answersNow.restart(),
        };
    }
    let raw: RenderResponse;
    try {
      if (cancel?.aborted) throw cancelledError(name);
      raw = await (sandbox instanceof TenantIsolates
        ? sandbox.render(tenant, memoryMB, c.template, request, limits, handler, callsNow, group)
        : sandbox.render(tenant, memoryMB, c.template, request, limits, handler!, group));
    } finally {
      cancel?.removeEventListener('abort', onCancel);
      // However the render ended, the host work its plugins started stops with it (D152).
      bridge?.end();
      // A request id the engine made up names this render alone: nothing can read its globals later.
      if (opts.identity?.requestId === undefined) hostState.requestGlobals.endRequest(tenant, identity.requestId);
    }
    if (event && typeof raw.cpuMs === 'number') event.cpuMs = raw.cpuMs;
    if (raw.error) {
      // close() stopped the isolate or the worker under the render: say so, not what the stop
      // looked like from inside (a disposed isolate reads as a memory limit, a killed worker as a crash).
      if (closed && SANDBOX_STOPS.has(raw.error.code))
        throw runtimeError(
          { ...raw.error, code: 'E_ENGINE_CLOSED', message: 'the engine was closed during the render' },
          c,
        );
      throw runtimeError(raw.error, c);
    }
    if (raw.logs?.length) publishTemplateLogs(raw.logs, (i) => logPlace(raw.logsAt?.[i], c), identity);
    const warnings = raw.warnings ?? [];
    return {
      output: raw.output ?? '',
      warnings,
      logs: raw.logs ?? [],
      returnValue: raw.returnValue ?? null,
      ...(typeof raw.returnJson === 'string' ? { returnJson: raw.returnJson } : {}),
      diagnostics: warnings.length
        ? [...c.diagnostics, ...warnings.map((w, i) => runtimeWarning(w, raw.warningsAt?.[i], c))]
        : c.diagnostics,
    };
  }
}

/** A render cancelled before it started (RenderOptions.signal). */
function cancelledError(name: string): TemplateError {
  return unplacedError('E_CANCELLED', cancelled().message, name);
}

/** An error of the render as a whole, before any of its template ran: no line to name. */
function unplacedError(code: ErrorCode, message: string, name: string): TemplateError {
  return new TemplateError({ code, message, name, line: 0, column: 0, frame: '' });
}

function inProcessIsolates(opts: Partial<PoolOptions> = {}): TenantIsolates {
  const p = { ...DEFAULT_POOL, ...opts };
  return new TenantIsolates({
    idleMs: p.isolateIdleMs,
    retainMB: p.isolateRetainMB,
    heapBudgetMB: p.workerHeapBudgetMB,
    maxIsolates: p.workerMaxIsolates,
    reduceAfterMs: p.isolateReduceAfterMs,
    tenantsPerIsolate: p.tenantsPerIsolate,
  });
}

/**
 * The most tenants one isolate holds: each adds ~1-1.5 MB of committed heap to the isolate's 128
 * MB, and the isolate is disposed past `isolateRetainMB` (64 MB by default) after a render: 32
 * leave room for a render's own garbage below it.
 */
const MAX_TENANTS_PER_ISOLATE = 32;

/**
 * Random bytes for seeds and request ids, drawn from the CSPRNG 4 KB at a time: a render's two
 * `randomBytes` calls cost ~5 µs, most of it the calls, not the bytes; pooled ~1 µs.
 */
const randomPool = Buffer.alloc(4096);
let randomAt = randomPool.length;

/** Where the next `n` bytes of the pool start (refilled when fewer are left). */
function pooledAt(n: number): number {
  if (randomAt + n > randomPool.length) {
    randomFillSync(randomPool);
    randomAt = 0;
  }
  const at = randomAt;
  randomAt += n;
  return at;
}

/** 16 random bytes for a render's seed, as numbers (no Buffer made on the way). */
function pooledSeed(): number[] {
  const at = pooledAt(16);
  const seed: number[] = [];
  for (let i = at; i < at + 16; i++) seed.push(randomPool[i]!);
  return seed;
}

/** A request id: 8 random bytes as hex. */
function pooledHex(): string {
  const at = pooledAt(8);
  return randomPool.toString('hex', at, at + 8);
}

/**
 * Nothing but a TemplateError leaves a render: anything else thrown on the way (a bug, an
 * embedder's lookup function that threw) becomes E_INTERNAL, with what was thrown as its `cause`
 * for the embedder's log and neither its message nor its stack in the error (they name host files).
 */
function asTemplateError(e: unknown, name: string | undefined): TemplateError {
  if (e instanceof TemplateError) return e;
  const what = e instanceof Error ? e.name : typeof e;
  return new TemplateError(
    {
      code: 'E_INTERNAL',
      message: `internal error (${what}) while rendering the template`,
      name: name ?? 'template',
      line: 0,
      column: 0,
      frame: '',
    },
    [],
    { cause: e },
  );
}

/** The engine whose render lets nothing but a TemplateError out. */
function guarded(engine: Engine): Engine {
  return {
    ...engine,
    render: (source, opts) =>
      engine.render(source, opts).catch((e: unknown) => Promise.reject(asTemplateError(e, opts?.name))),
  };
}

/** Errors of the sandbox itself: the isolate was stopped from outside, so no stack names a line. */
const SANDBOX_STOPS = new Set(['E_CPU_TIMEOUT', 'E_WALL_TIMEOUT', 'E_MEMORY_LIMIT', 'E_SANDBOX_CRASHED']);

/** The identity a render or compile runs with: the embedder's, completed with the defaults. */
function identityOf(given: Partial<RenderIdentity> | undefined): RenderIdentity {
  return {
    tenant: 'default',
    memberId: null,
    superUser: false,
    context: 'web',
    ...given,
    requestId: given?.requestId ?? pooledHex(),
  };
}

/** The line-table entry a position slot value names (1-based), or undefined for none or a value out of range. */
function slotPosition(at: unknown, c: Compiled): readonly [number, number, number, number] | undefined {
  const table = c.lineTable;
  if (typeof at !== 'number' || !Number.isInteger(at) || at < 1 || at > table.length / 4) return undefined;
  const i = (at - 1) * 4;
  return [table[i], table[i + 1], table[i + 2], table[i + 3]] as const;
}

/** Where a log line was written: the template and line of the position slot then (line 0 when none was recorded). */
function logPlace(at: number | undefined, c: Compiled): { template: string; line: number } {
  const pos = slotPosition(at, c);
  return { template: (c.sources[pos ? pos[1] : 0] ?? c.sources[0]).name, line: pos ? pos[2] : 0 };
}

/** A warning of the render at the plugin or modifier call that raised it (line 0 when none was recorded). */
function runtimeWarning(message: string, at: number | undefined, c: Compiled): Diagnostic {
  const pos = slotPosition(at, c);
  const src = c.sources[pos ? pos[1] : 0] ?? c.sources[0];
  const [line, column] = pos ? [pos[2], pos[3]] : [0, 0];
  return {
    severity: 'warning',
    code: 'W_RUNTIME',
    message: String(message),
    name: src.name,
    line,
    column,
    frame: pos ? src.frame(line, column) : '',
  };
}

/** A runtime error inside the template: the line table maps the stack frame back to the template. */
function runtimeError(err: { code: string; message: string; stack: string; at?: number }, c: Compiled): TemplateError {
  // The isolate's answer is untrusted: a code that is not one of ours is a runtime error.
  const code = isErrorCode(err.code) ? err.code : 'E_RUNTIME';
  const file = c.template.filename;
  const m = new RegExp(`${file.replace(/[.]/g, '\\.')}:(\\d+):(\\d+)`).exec(err.stack);
  // The line table is flat: entry i is [generated line, template index, line, column] at 4i.
  const table = c.lineTable;
  let at = -1;
  if (m) {
    const line = Number(m[1]);
    for (let i = 0; i < table.length; i += 4) if (table[i] <= line) at = i;
  }
  // Limits enforced from outside (CPU and wall time, memory) stop the isolate with no stack to
  // read: the position slot names the loop or plugin call the template was in (its line-table index).
  const pos = at >= 0 ? ([table[at], table[at + 1], table[at + 2], table[at + 3]] as const) : slotPosition(err.at, c);
  const src = c.sources[pos ? pos[1] : 0];
  if (!pos) {
    const unknown = SANDBOX_STOPS.has(code)
      ? ' (line unknown: the sandbox stopped before the template recorded a position)'
      : '';
    return new TemplateError({ code, message: err.message + unknown, name: src.name, line: 0, column: 0, frame: '' });
  }
  return new TemplateError({
    code,
    message: err.message,
    name: src.name,
    line: pos[2],
    column: pos[3],
    frame: src.frame(pos[2], pos[3]),
  });
}
