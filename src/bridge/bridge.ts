/**
 * The host end of the one bridge from the isolate: for each privileged plugin call it parses
 * the request as untrusted data, checks it against the plugin's declaration, counts it against
 * the render's quotas, runs the plugin's host implementation with the identity the embedder
 * gave the render, and answers with data. It never throws and never rejects: every failure is
 * an answer with a code, and no answer carries a secret value, a host path or a stack.
 */
import type { FunctionPlugin } from '../plugins/types.js';
import {
  MAX_REQUEST_CHARS,
  MAX_TRANSFER_DEPTH,
  TransferDepthError,
  decodeValue,
  encodeAnswer,
  type AnswerTransfer,
} from '../protocol/transfer.js';
import type { Value } from '../value/value.js';
import type { HostAnswer, HostCallHandler, HostCallsNow, TagAnswer } from '../protocol/host-call.js';
import { isErrorCode, type ErrorCode } from '../protocol/error-codes.js';
import type { SandboxLimits } from '../sandbox/limits.js';
import type { HostAdapters, HostOption, RenderIdentity } from '../host-api/host.js';
import { validateAttrs } from './validate.js';
import { BridgeError } from '../host-api/errors.js';
import { BUILTIN_TABLE } from '../host-plugins/index.js';
import { SecretHandles } from './secret-handles.js';
import { answerModifier } from './host-modifiers.js';
import { HostState } from './host-state.js';
import type { RequestScope } from './request-globals.js';
import type { BridgeCall, HostResult, PluginTable, RenderClock } from '../host-plugins/plugin-contract.js';
import { nowFaceOf } from '../host-plugins/read-plugin.js';
import { adapterFor, hostProvides } from '../host-api/capabilities.js';
import { resolveHost } from '../host-api/resolve.js';
import { observeHostCalls, observeHostCallsNow } from '../diagnostics.js';
import { notNow, runLater, runNow, wait, type Steps } from '../host-api/now-or-later.js';
import { RenderSignal, renderEnded, renderHost, withRenderSignal } from '../host-api/render-signal.js';
import { SITE_DEFAULTS } from '../site-defaults.js';

/**
 * An identity attribute written as a literal: the value must be one the compiler saw in the
 * template (a value the isolate made up, or one read from a variable, is refused) unless the
 * render runs for a super user.
 */
function checkIdentityAttrs(
  decl: FunctionPlugin,
  attrs: Record<string, Value>,
  identity: RenderIdentity,
  facts: IdentityFacts,
): void {
  if (identity.superUser) return;
  for (const [name, spec] of Object.entries(decl.attrs)) {
    if (!spec.literalUnlessSuperUser || attrs[name] === undefined || attrs[name] === null) continue;
    const allowed = facts.literals[`${decl.name}.${name}`] ?? [];
    if (!allowed.includes(attrs[name] as number)) {
      throw new BridgeError(
        'E_IDENTITY_DENIED',
        `{${decl.name}} ${name} must be written as a number in the template (variables need a super user)`,
      );
    }
  }
}

/** Our errors carry one of our codes; anything else is an unexpected host failure and says nothing more. */
function errorCode(e: unknown): ErrorCode {
  const code = e instanceof Error ? (e as unknown as { code?: unknown }).code : undefined;
  return isErrorCode(code) ? code : 'E_HOST_FAILED';
}

/** What the compiler proved about identity attributes (Manifest.identity). */
export interface IdentityFacts {
  literals: Record<string, number[]>;
}

/**
 * Told what a host plugin or adapter threw when it failed without one of our codes: the
 * template gets E_HOST_FAILED and no more (D49), the embedder's log gets the error as thrown.
 */
export type HostErrorReport = (error: unknown, where: { plugin: string; tenant: string }) => void;

export interface BridgeOptions {
  /** The plugins this bridge runs: the built-in ones unless the engine has its own. */
  plugins?: PluginTable;
  onHostError?: HostErrorReport;
  /** The engine's host state (host-state.ts); a bridge made without one gets its own. */
  state?: HostState;
}

/**
 * What one render's host plugins are handed (BridgeCall). A class, not an object literal with
 * getters: a literal whose getters are new closures gets a hidden class of its own at each
 * render, made in old space and pointing at that render's young objects, so every bridge
 * outlived the young generation's collections (the host's heap grew to ~120 MB between full
 * collections, each scavenge copying tens of MB: ~20 µs of a ~60 µs small render; docs/decisions.md D209).
 */
class RenderBridgeCall implements BridgeCall {
  readonly counters = new Map<string, number>();
  private slept = 0;
  private view: HostAdapters | null = null;
  private unresolved: { error: unknown } | null = null;

  constructor(
    private readonly source: HostOption,
    readonly identity: RenderIdentity,
    private readonly limits: SandboxLimits,
    readonly render: RenderClock,
    readonly secrets: SecretHandles,
    readonly ending: RenderSignal,
    readonly state: HostState,
    private readonly started: number,
  ) {}

  /** The render's adapters: resolved on first use, once; a resolver that threw fails every call of the render. */
  get host(): HostAdapters {
    if (this.view) return this.view;
    if (this.unresolved) throw this.unresolved.error;
    try {
      this.view = renderHost(resolveHost(this.source, this.identity), () => this.ending.signal);
    } catch (e) {
      this.unresolved = { error: e };
      throw e;
    }
    return this.view;
  }

  get signal(): AbortSignal {
    return this.ending.signal;
  }

  get requestGlobals(): RequestScope {
    return this.state.requestGlobals.scope(this.identity.tenant, this.identity.requestId);
  }

  timeLeft(): number {
    return this.limits.wallMs - (Date.now() - this.started);
  }

  chargeSleep(ms: number): void {
    if (this.slept + ms > this.limits.maxSleepMs)
      throw new BridgeError(
        'E_SLEEP_BUDGET',
        `{sleep} would exceed the render's sleep budget of ${this.limits.maxSleepMs} ms`,
      );
    this.slept += ms;
  }
}

export function createBridge(
  host: HostOption,
  identity: RenderIdentity,
  limits: SandboxLimits,
  facts: IdentityFacts = { literals: {} },
  render: RenderClock = {
    now: Math.floor(Date.now() / 1000),
    timezone: SITE_DEFAULTS.timezone,
    lang: SITE_DEFAULTS.lang,
  },
  options: BridgeOptions = {},
): {
  handler: HostCallHandler;
  /**
   * The same calls answered at once, for a render in the synchronous slice (docs/decisions.md
   * D268), when every host plugin `names` (the template's `manifest.host`) reads only and its
   * adapter on this render's host answers at once; otherwise null and the render goes async.
   */
  answersNow: (names: readonly string[]) => HostCallsNow | null;
  secrets: SecretHandles;
  end: (reason?: BridgeError) => void;
} {
  const plugins = options.plugins ?? BUILTIN_TABLE;
  const started = Date.now();
  let calls = 0;
  const secrets = new SecretHandles();
  const bridgeCall = new RenderBridgeCall(
    host,
    identity,
    limits,
    render,
    secrets,
    new RenderSignal(started + limits.wallMs),
    options.state ?? new HostState(),
    started,
  );
  const ending = bridgeCall.ending;

  /**
   * A tag's call: its declaration and implementation, its attributes checked, its answer encoded.
   * `now`: answered at once by the plugin's `runNow` (a read-only plugin whose adapter has a now
   * face), else E_SLICE_YIELD; the checks before and after are the same code on both paths.
   */
  function* answerTag(pluginName: string, raw: Record<string, unknown>, now: boolean): Steps<TagAnswer> {
    const impl = Object.prototype.hasOwnProperty.call(plugins.functions, pluginName)
      ? plugins.functions[pluginName]
      : undefined;
    const decl = plugins.declarations.findFunction(pluginName);
    if (!impl || !decl || !decl.host)
      throw new BridgeError('E_PLUGIN_DENIED', `{${pluginName.slice(0, 40)}} is not a host plugin`);
    // Resolved once, here: the plugin is handed its adapter and checks for none (D153).
    const adapter = adapterFor(bridgeCall.host, decl.host, `{${decl.name}}`);
    const given = raw.attrs;
    if (!given || typeof given !== 'object' || Array.isArray(given))
      throw new BridgeError('E_BAD_ATTRIBUTE', `{${pluginName}} attributes are malformed`);
    const attrs: Record<string, Value> = Object.create(null);
    for (const [k, v] of Object.entries(given as Record<string, unknown>)) attrs[k] = decodeValue(v);
    const valid = validateAttrs(decl, attrs);
    checkIdentityAttrs(decl, valid, identity, facts);
    if (decl.budget) chargeBudget(decl, bridgeCall.counters);
    const signal = bridgeCall.signal;
    // A call the render's end cut short answers why it ended (a cancel: E_CANCELLED), never what the
    // plugin made of its aborted work (`{api}`: "request failed", status 0), which a template would
    // go on from as if the request had failed by itself (CPU-11).
    let result: HostResult;
    try {
      if (now) {
        const runNowOf = impl.runNow;
        if (!runNowOf) throw notNow(`{${decl.name}} is not a read that answers at once`);
        result = withRenderSignal(signal, () => runNowOf(valid, bridgeCall, adapter, signal));
      } else result = yield* wait(withRenderSignal(signal, () => impl.run(valid, bridgeCall, adapter, signal)));
    } catch (e) {
      throw renderEnded(signal) ?? e;
    }
    const ended = renderEnded(signal);
    if (ended) throw ended;
    return {
      ok: true,
      assign: (result.assign ?? []).map(
        ([name, v]) => [name, crossing(decl.name, name, v)] as [string, AnswerTransfer],
      ),
      iterate: result.iterate
        ? {
            var: result.iterate.var,
            items: result.iterate.items.map((v) => crossing(decl.name, result.iterate!.var, v)),
          }
        : undefined,
      output: result.output,
      log: result.log?.map((l) => ({ level: l.level, message: l.message })),
    };
  }

  /** One call, on either path (`now`: the synchronous slice's): never throws, every failure is an answer. */
  function* answer(kind: string, request: string, now: boolean): Steps<string> {
    let label = 'a host call';
    let reported = '';
    try {
      if (++calls > limits.maxHostCalls)
        throw new BridgeError('E_BRIDGE_QUOTA', `more than ${limits.maxHostCalls} host calls in one render`);
      if (typeof request !== 'string' || request.length > MAX_REQUEST_CHARS)
        throw new BridgeError('E_BAD_ATTRIBUTE', "a host call's attributes are too large");
      if (!now && replay.size > 0) {
        const kept = replay.get(`${kind}\0${request}`);
        if (kept !== undefined) {
          replay.delete(`${kind}\0${request}`);
          return kept;
        }
      }
      const raw = JSON.parse(request) as unknown;
      if (!raw || typeof raw !== 'object' || Array.isArray(raw) || typeof (raw as { name?: unknown }).name !== 'string')
        throw new BridgeError('E_BAD_ATTRIBUTE', 'a host call is malformed');
      const call = raw as Record<string, unknown> & { name: string };
      const name = call.name.slice(0, 40);
      reported = name;
      let answer: HostAnswer;
      switch (kind) {
        case 'tag':
          label = `{${name}}`;
          answer = yield* answerTag(call.name, call, now);
          break;
        case 'modifier':
          label = `the modifier ${name}`;
          // No host modifier answers at once: a template that has one never takes the slice.
          if (now) throw notNow(`${label} is not a read that answers at once`);
          answer = yield* wait(
            answerModifier(call.name, call as { input?: unknown; args?: unknown }, bridgeCall, plugins),
          );
          break;
        default:
          throw new BridgeError('E_PLUGIN_DENIED', 'a host call of no known kind');
      }
      // Whatever a plugin fetched may hold a secret this render sent (a server that echoes it).
      return JSON.stringify(secrets.redactAnswer(answer));
    } catch (e) {
      const code = errorCode(e);
      if (code === 'E_HOST_FAILED') report(options.onHostError, e, reported, identity.tenant);
      let message = code === 'E_HOST_FAILED' ? `${label} failed on the host` : String((e as Error).message);
      try {
        message = secrets.redact(message).slice(0, 1000);
      } catch {
        // Too many secret values to redact in an error text: say nothing of it.
        message = `${label} failed; its message held secret values`;
      }
      return JSON.stringify({ ok: false, error: { code, message } } satisfies HostAnswer);
    }
  }

  /**
   * What the calls of a slice answered at once, by call (kind and request text), for the render's
   * run again after its slice was cut: the same call is answered from here once, not read again.
   * A cut render with host calls otherwise paid for its reads twice, and on a loaded machine, where
   * a wall-clock slice is cut often, that made `news` slower than the async path (D269). The answer
   * is the one this render got a moment ago, for the same identity and clock: only reads fill it.
   */
  const replay = new Map<string, string>();
  const handler: HostCallHandler = (kind, request) => runLater(answer(kind, request, false));
  const callNow = (kind: string, request: string): string => {
    const text = runNow(answer(kind, request, true));
    if (text.startsWith('{"ok":true')) replay.set(`${kind}\0${request}`, text);
    return text;
  };

  /**
   * Whether every name of `names` is a tag of this bridge that reads only (`runNow`) and whose
   * adapter on this host has a now face; a host modifier of that name, an embedder's plugin, a
   * write, a resolver that throws: no. Asked once per render, before it starts.
   */
  function answersNow(names: readonly string[]): HostCallsNow | null {
    if (names.length === 0) return null;
    const capabilities: string[] = [];
    for (const name of names) {
      const impl = Object.hasOwn(plugins.functions, name) ? plugins.functions[name] : undefined;
      const decl = plugins.declarations.findFunction(name);
      if (!impl?.runNow || !decl?.host || Object.hasOwn(plugins.modifiers, name)) return null;
      capabilities.push(decl.host);
    }
    // Only now the host: a template that may call anything but a read never resolves it early.
    let host: HostAdapters;
    try {
      host = bridgeCall.host;
    } catch {
      return null;
    }
    for (const c of capabilities) if (!hostProvides(host, c) || !nowFaceOf(adapterFor(host, c, c))) return null;
    return {
      call: observeHostCallsNow(callNow, identity),
      // Only reads ran in the cut slice (runNow), so forgetting what they counted repeats no effect.
      restart() {
        calls = 0;
        bridgeCall.counters.clear();
      },
    };
  }
  // The one dispatch point: every call of this render passes here (src/diagnostics.ts).
  return {
    handler: observeHostCalls(handler, identity),
    answersNow,
    secrets,
    end: (reason?: BridgeError) => ending.end(reason),
  };
}

/**
 * A value a plugin gives the template, as it crosses. One nested deeper than the bridge carries
 * (an API's JSON, a line of a JSONL file) is the answer's size limit, named by the plugin and the
 * variable it was for: it failed as E_BAD_ATTRIBUTE "cannot cross the bridge", which read as a
 * fault of the template's own attributes (D332).
 */
function crossing(plugin: string, variable: string, v: Value): AnswerTransfer {
  try {
    return encodeAnswer(v);
  } catch (e) {
    if (!(e instanceof TransferDepthError)) throw e;
    throw new BridgeError(
      'E_SIZE_LIMIT',
      `{${plugin}} cannot give $${variable} a value nested deeper than ${MAX_TRANSFER_DEPTH} levels`,
    );
  }
}

/**
 * One call of a plugin that creates stored rows, counted against its kind's per-render budget
 * (plugins/budgets.ts): shared by the plugins of that kind, refused past it before the plugin runs.
 */
function chargeBudget(decl: FunctionPlugin, counters: Map<string, number>): void {
  const budget = decl.budget!;
  const key = `budget:${budget.rows}`;
  const used = counters.get(key) ?? 0;
  if (used >= budget.perRender)
    throw new BridgeError(
      'E_BUDGET',
      `{${decl.name}}: one render may create at most ${budget.perRender} ${budget.rows}`,
    );
  counters.set(key, used + 1);
}

/** The embedder's report gets the error; a report that throws changes nothing of the answer. */
function report(onHostError: HostErrorReport | undefined, error: unknown, plugin: string, tenant: string): void {
  try {
    onHostError?.(error, { plugin, tenant });
  } catch {
    // The template's answer is E_HOST_FAILED either way.
  }
}
