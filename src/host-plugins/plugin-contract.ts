/**
 * The contract between the bridge and the host implementations of privileged plugins and host
 * modifiers: what an implementation is given for one call and what it answers, and `implement`,
 * which writes one against its declaration. It imports no implementation, so the bridge (bridge.ts, host-modifiers.ts) and every plugin
 * (plugins/<family>/<tag>.ts) depend on it rather than on each other.
 */
import type { PhpArray, Value } from '../value/value.js';
import type { HostAdapters, RenderIdentity, SecretRecord } from '../host-api/host.js';
import type { PluginSet } from '../plugins/plugin-set.js';
import type { AttrSpec, FunctionPlugin, ModifierPlugin } from '../plugins/types.js';
import type { AdapterOf } from '../host-api/capabilities.js';
import type { Steps } from '../host-api/now-or-later.js';
import type { LogLine } from '../protocol/log.js';
import type { HostState } from '../bridge/host-state.js';
import type { RequestScope } from '../bridge/request-globals.js';

/** The secret handles issued in this render (secret-handles.ts), as plugins use them. */
export interface RenderSecrets {
  /** A new handle for the secret `name` (the value stays on the host). */
  issue(name: string, record: SecretRecord): string;
  /** True when the text holds a handle issued in this render. */
  contains(text: string): boolean;
  /**
   * The text with its handles replaced by their values where `allowed(record)` says this use is
   * allowed; otherwise E_SECRET_DENIED. `use` names the place in that error.
   */
  substitute(text: string, use: string, allowed: (record: SecretRecord) => boolean): string;
  /**
   * `text` with every form of every value issued in this render replaced by a marker, as the
   * bridge does to its answers; a plugin that keeps host data beyond the render (a downloaded
   * file) compares it with this to learn whether it holds a secret.
   */
  redact(text: string): string;
}

/** The render's clock and its site's settings, as the isolate sees them ($smarty.now, the time zone, the language). */
export interface RenderClock {
  /** Unix seconds, fixed for the render (EngineOptions.now in tests). */
  now: number;
  /** IANA time zone of the site (EngineOptions.timezone). */
  timezone: string;
  /** The site's language (EngineOptions.lang): the default of plugins' `lang`. */
  lang: string;
}

/** What a host plugin implementation gets for one call. */
export interface BridgeCall {
  readonly identity: RenderIdentity;
  readonly host: HostAdapters;
  /** The render's clock and site settings: what open/close dates are checked against, how dates print. */
  readonly render: RenderClock;
  readonly secrets: RenderSecrets;
  /**
   * Aborted when the render ends for any reason (done, failed, CPU or wall deadline, memory
   * limit, engine closed), at the latest at its wall deadline (render-signal.ts). A plugin passes
   * it to every long operation it starts (streams, child processes, pages, requests: `host.http`
   * already carries it) and writes nothing once it is aborted.
   */
  readonly signal: AbortSignal;
  /** Milliseconds left before the render's wall-clock deadline. */
  timeLeft(): number;
  /** Counts sleeping against the render's sleep budget; throws when it is used up. */
  chargeSleep(ms: number): void;
  /** Values kept for one request across renders ({assign_globals}), counted and capped (request-globals.ts). */
  readonly requestGlobals: RequestScope;
  /** Host work of this render that plugins bound across their calls (read_dir: directory entries read). */
  readonly counters: Map<string, number>;
  /** What the engine that made this bridge keeps between renders (its caches): never another engine's. */
  readonly state: HostState;
}

export interface HostResult {
  /** Variables to assign, in order (names use the {assign} rules). */
  assign?: [string, Value][];
  /** Block plugins: the body runs once per item, with the item in `var`. */
  iterate?: { var: string; items: Value[] };
  output?: string;
  log?: LogLine[];
}

/** One attribute as the bridge hands it over, checked against its declaration (validate.ts). */
type AttrValue<S extends AttrSpec> = S['type'] extends 'string' | 'varname'
  ? string
  : S['type'] extends 'int' | 'number'
    ? number
    : S['type'] extends 'bool'
      ? boolean
      : S['type'] extends 'array'
        ? PhpArray
        : Value;

/** What an omitted attribute is: its default, or absent (never for a required one). */
type Omitted<S> = S extends { required: true } ? never : S extends { default: infer X } ? X : undefined;

/** The checked attributes of a declaration, typed from it: `{gzip}` gets `{ file_url: string; dest: string | undefined; ... }`. */
type AttrsOf<D extends FunctionPlugin> = {
  readonly [K in keyof D['attrs'] & string]: AttrValue<D['attrs'][K]> | Omitted<D['attrs'][K]>;
} & (D extends { extraAttrs: true } ? Readonly<Record<string, Value>> : unknown);

/**
 * A privileged plugin's host side, made by `implement`: the bridge checks the attributes against
 * `declaration`, resolves the adapter its capability names (E_HOST_CAPABILITY when the host has
 * none) and hands both over with the render's signal.
 */
export interface HostPlugin {
  readonly name: string;
  run(attrs: Record<string, Value>, call: BridgeCall, adapter: unknown, signal: AbortSignal): Promise<HostResult>;
  /**
   * Present on a plugin that only reads (made by `implementRead`): the same call answered at once
   * from the now face of its adapter (`adapter.now`), for a render in the synchronous slice
   * (docs/decisions.md D268). A plugin with any effect outside its answer (a write, a counter, a
   * mail, a file, a sleep) never has it: a cut render runs again from the start, so it may repeat
   * its reads, never an effect. Throws E_SLICE_YIELD (`notNow`) when the adapter has no now face
   * or a read could not be answered at once.
   */
  runNow?(attrs: Record<string, Value>, call: BridgeCall, adapter: unknown, signal: AbortSignal): HostResult;
}

/** A host plugin's run, typed from its declaration: its attributes, the adapter of its capability, the render's signal. */
export type HostRun<D extends FunctionPlugin> = (
  attrs: AttrsOf<D>,
  call: BridgeCall,
  adapter: AdapterOf<D['host']>,
  signal: AbortSignal,
) => Promise<HostResult>;

/** The one way to write a host plugin: against its declaration, whose name, attributes and capability it takes. */
export function implement<const D extends FunctionPlugin & { host: string }>(
  declaration: D,
  run: HostRun<D>,
): HostPlugin {
  return { name: declaration.name, run: run as HostPlugin['run'] };
}

/** The face of an adapter that answers at once (`ContentAdapter.now`), if it has one. */
type NowFace<A> = A extends { readonly now?: infer N } ? NonNullable<N> : never;

/**
 * A read-only plugin's body, typed from its declaration: written once as steps (`yield* wait(x)`
 * where an async function awaits, src/host-api/now-or-later.ts) over the reads of its adapter,
 * which are the adapter itself on the async path and its now face in the slice.
 */
export type ReadRun<D extends FunctionPlugin> = (
  attrs: AttrsOf<D>,
  call: BridgeCall,
  reads: AdapterOf<D['host']> | NowFace<AdapterOf<D['host']>>,
  signal: AbortSignal,
) => Steps<HostResult>;

/** What a host modifier implementation gets: the checked input and the arguments the template gave (defaults filled in). */
export interface HostModifier {
  readonly name: string;
  run(input: Value, args: Value[], call: BridgeCall, adapter: unknown, signal: AbortSignal): Promise<Value>;
}

/** A host modifier, written against its declaration as `implement` writes a tag. */
export function implementModifier<const D extends ModifierPlugin & { host: string }>(
  declaration: D,
  run: (
    input: Value,
    args: Value[],
    call: BridgeCall,
    adapter: AdapterOf<D['host']>,
    signal: AbortSignal,
  ) => Promise<Value>,
): HostModifier {
  return { name: declaration.name, run: run as HostModifier['run'] };
}

/**
 * What one bridge runs: the declarations it checks calls against and the host implementations by
 * name. The built-in table (plugins/index.ts), or an engine's, which adds the embedder's plugins.
 */
export interface PluginTable {
  declarations: PluginSet;
  functions: Readonly<Record<string, HostPlugin>>;
  modifiers: Readonly<Record<string, HostModifier>>;
}
