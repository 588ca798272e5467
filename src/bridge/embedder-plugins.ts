/**
 * An embedder's own plugins (createEngine({ plugins }), docs/plugins-for-embedders.md) on the
 * host: what an embedder writes, the declaration the compiler and the bridge read from it, and
 * the host implementation the bridge runs.
 *
 * The bridge treats them as it treats the built-in host plugins: the attributes are checked
 * against the declaration, the call is counted, the identity is the render's. It also checks
 * what their `run` answers (docs/decisions.md D67), since it is code the project did not write
 * and may be plain JavaScript: template values or plain data only, of the shape a host plugin
 * answers with, no larger than what a template may send (MAX_REQUEST_CHARS).
 */
import { fromJS, type Value } from '../value/value.js';
import type { AttrSpec, FunctionPlugin, ModifierParam, ModifierPlugin, Plugin } from '../plugins/types.js';
import {
  MAX_REQUEST_CHARS,
  TransferError,
  checkTransferSize,
  encodeValue,
  type Transfer,
} from '../protocol/transfer.js';
import type { BridgeCall, HostModifier, HostPlugin, HostResult, RenderClock } from '../host-plugins/plugin-contract.js';
import type { HostAdapters, RenderIdentity } from '../host-api/host.js';
import { BridgeError } from '../host-api/errors.js';
import { ENGINE_CAPABILITY, type HostCapability } from '../host-api/capabilities.js';
import { VARNAME } from './validate.js';
import { LOG_LEVELS, type LogLine } from '../protocol/log.js';

/**
 * An embedder's plugin answered with what the bridge does not take: a bug of the embedder's, so
 * the template gets E_HOST_FAILED alone and EngineOptions.onHostError this error.
 */
export class PluginAnswerError extends Error {
  override readonly name = 'PluginAnswerError';
}

/** What an embedder's plugin gets for one call. */
export interface PluginCall {
  /** Who the render runs for, as the embedder gave it to `render()`: never from an attribute. */
  readonly identity: Readonly<RenderIdentity>;
  /** The engine's host adapters (`createEngine({ host })`). */
  readonly host: HostAdapters;
  /** The render's clock and site settings: `now` is the render's `$smarty.now`, for rules such as "open until". */
  readonly render: Readonly<RenderClock>;
  /**
   * Aborted when the render ends for any reason (at the latest at its wall deadline): pass it to
   * whatever long work the plugin starts, and write nothing once it is aborted (D152).
   */
  readonly signal: AbortSignal;
  /** Milliseconds left before the render's wall-clock deadline. */
  timeLeft(): number;
}

/** An example a test renders (runPluginExamples): the template, its variables, the exact output. */
export interface PluginExample {
  template: string;
  vars?: Record<string, unknown>;
  output: string;
}

interface Declared {
  /** The name templates write: letters, digits and `_`, not one of the language's (docs/decisions.md D66). */
  name: string;
  aliases?: readonly string[];
  summary: string;
  examples: readonly PluginExample[];
  /**
   * A HostAdapters field the plugin needs: without it on the engine's host, a call is refused
   * with E_HOST_CAPABILITY before `run`. Absent: the plugin needs no adapter.
   */
  host?: keyof HostAdapters;
}

/** What a tag's `run` answers: as a built-in host plugin does, values as template values or plain data. */
export interface TagResult {
  /** Variables to assign, in order (`a`, `a.b`, `list.` as {assign} writes them). */
  assign?: [string, unknown][];
  /** Text the tag prints (`kind: 'function'`). */
  output?: string;
  /** `kind: 'block'`: the body runs once per item, with the item in `var`. */
  iterate?: { var: string; items: unknown[] };
  log?: LogLine[];
}

/** A tag: `{name attr=value ...}`, or with `kind: 'block'` `{name ...}...{/name}`. */
export interface TagDefinition extends Declared {
  kind: 'function' | 'block';
  /** Attributes as data, as the built-in plugins declare them (src/plugins/types.ts AttrSpec). */
  attrs: Readonly<Record<string, AttrSpec>>;
  /** Further attributes are accepted and passed on unchecked. */
  extraAttrs?: boolean;
  /** Runs on the host with the checked attributes (defaults filled in). */
  run(attrs: Record<string, Value>, call: PluginCall): TagResult | void | Promise<TagResult | void>;
}

/** A modifier: `{$value|name:arg1:arg2}`. Without `@`, Smarty applies it to each element of an array. */
export interface ModifierDefinition extends Declared {
  kind: 'modifier';
  /** The value left of the `|`, checked as a parameter is. Default: `value`, any type, null allowed. */
  input?: ModifierParam;
  params: readonly ModifierParam[];
  /** Runs on the host with the checked input and arguments (defaults filled in); answers a template value or plain data. */
  run(input: Value, args: Value[], call: PluginCall): unknown;
}

export type PluginDefinition = TagDefinition | ModifierDefinition;

/** The input of a modifier that declares none. */
const ANY_INPUT: ModifierParam = Object.freeze({ name: 'value', type: 'mixed', required: false });

/** The declaration the compiler and the bridge read: the built-in form, with no code of the embedder's. */
export function declarationOf(def: PluginDefinition): Plugin {
  const host: HostCapability = def.host ?? ENGINE_CAPABILITY;
  const common = { name: def.name, aliases: def.aliases, summary: def.summary, examples: def.examples, host };
  if (def.kind === 'modifier') {
    const params = def.params.map(withValueDefault);
    const decl: ModifierPlugin = {
      ...common,
      kind: 'modifier',
      origin: 'platform',
      params,
      input: def.input ?? ANY_INPUT,
      // Never called: the compiler aliases it to rt.hostModifier, and the isolate asks the host.
      run: () => {
        throw new Error(`the modifier ${def.name} runs on the host`);
      },
    };
    return decl;
  }
  const attrs = Object.fromEntries(Object.entries(def.attrs).map(([k, spec]) => [k, withValueDefault(spec)]));
  const decl: FunctionPlugin = { ...common, kind: def.kind, attrs, extraAttrs: def.extraAttrs };
  return decl;
}

/** A default written as plain data (`default: ['a']`) becomes the template value the bridge fills in. */
function withValueDefault<T extends { default?: Value }>(spec: T): T {
  return spec.default === undefined ? spec : { ...spec, default: fromJS(spec.default) };
}

/** The host implementation the bridge runs for a tag: the embedder's `run`, its answer checked. */
export function hostTag(def: TagDefinition): HostPlugin {
  return {
    name: def.name,
    async run(attrs, call) {
      return checkedResult(def, await def.run(attrs, callView(call)));
    },
  };
}

/** The host implementation the bridge runs for a modifier: its answer must be one template value. */
export function hostModifier(def: ModifierDefinition): HostModifier {
  return {
    name: def.name,
    async run(input, args, call) {
      const label = `the modifier ${def.name}`;
      const value = asValue(label, await def.run(input, args, callView(call)));
      capped(label, [encoded(label, value)]);
      return value;
    },
  };
}

/** The part of the bridge call an embedder's plugin gets, with an identity it cannot change for the rest of the render. */
function callView(call: BridgeCall): PluginCall {
  return {
    identity: Object.freeze({ ...call.identity }),
    host: call.host,
    render: Object.freeze({ ...call.render }),
    signal: call.signal,
    timeLeft: () => call.timeLeft(),
  };
}

const RESULT_KEYS: ReadonlySet<string> = new Set(['assign', 'output', 'iterate', 'log']);
const LEVELS: ReadonlySet<string> = new Set(LOG_LEVELS);

function checkedResult(def: TagDefinition, r: unknown): HostResult {
  if (r === undefined || r === null) return {};
  const label = `{${def.name}}`;
  const bad = (why: string): never => {
    throw new PluginAnswerError(`${label} answered wrongly: its answer ${why}`);
  };
  if (typeof r !== 'object' || Array.isArray(r)) bad('is not an object');
  const o = r as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!RESULT_KEYS.has(k)) bad(`has a field ${k.slice(0, 40)} (it may have assign, output, iterate, log)`);
  const out: HostResult = {};
  const sizes: Transfer[] = [];
  if (o.assign !== undefined) {
    if (!Array.isArray(o.assign)) bad('has an assign that is not a list of [name, value] pairs');
    out.assign = (o.assign as unknown[]).map((pair) => {
      if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || !VARNAME.test(pair[0]))
        bad('has an assign entry that is not a [variable name, value] pair');
      const [name, v] = pair as [string, unknown];
      const value = asValue(label, v);
      sizes.push(name, encoded(label, value));
      return [name, value];
    });
  }
  if (o.output !== undefined) {
    if (typeof o.output !== 'string') bad('has an output that is not a string');
    out.output = o.output as string;
    sizes.push(out.output);
  }
  if (o.iterate !== undefined) {
    const it = o.iterate as { var?: unknown; items?: unknown };
    if (def.kind !== 'block') bad('has iterate, which only a block answers');
    if (!it || typeof it.var !== 'string' || !VARNAME.test(it.var) || !Array.isArray(it.items))
      bad('has an iterate that is not { var, items: [...] }');
    const items = (it.items as unknown[]).map((x) => asValue(label, x));
    sizes.push(...items.map((x) => encoded(label, x)));
    out.iterate = { var: it.var as string, items };
  }
  if (o.log !== undefined) {
    const lines = o.log;
    if (
      !Array.isArray(lines) ||
      !lines.every(
        (l: { level?: unknown; message?: unknown } | null) =>
          l && LEVELS.has(String(l.level)) && typeof l.message === 'string',
      )
    ) {
      bad('has a log that is not a list of { level: info|warning|error, message }');
    }
    out.log = (lines as LogLine[]).map((l) => ({ level: l.level, message: l.message }));
    sizes.push(...out.log.map((l) => l.message));
  }
  capped(label, sizes);
  return out;
}

/** Plain data as a template value, as render variables are converted (arrays, objects, Dates as Unix time). */
function asValue(label: string, v: unknown): Value {
  if (typeof v === 'function' || typeof v === 'symbol') {
    throw new PluginAnswerError(`${label} answered wrongly: a ${typeof v} is not a template value`);
  }
  try {
    return fromJS(v);
  } catch (e) {
    // fromJS converts arrays as it meets them: a list that holds itself runs out of stack.
    if (e instanceof RangeError)
      throw new PluginAnswerError(`${label} answered wrongly: its answer nests too deep (or holds itself)`);
    throw e;
  }
}

/** The value as it crosses the bridge; what cannot cross (a class instance deep inside, a cycle) is the plugin's failure. */
function encoded(label: string, v: Value): Transfer {
  try {
    return encodeValue(v);
  } catch (e) {
    if (!(e instanceof TransferError)) throw e;
    throw new PluginAnswerError(`${label} answered wrongly: its answer is not a template value (${e.message})`);
  }
}

/** An answer is held to the cap of a request: no larger than what a template may send the host. */
function capped(label: string, values: Transfer[]): void {
  try {
    checkTransferSize(values, label);
  } catch (e) {
    if (!(e instanceof TransferError)) throw e;
    throw new BridgeError(
      'E_SIZE_LIMIT',
      `the answer of ${label} is too large to cross the bridge (over ${MAX_REQUEST_CHARS} characters)`,
    );
  }
}
