/**
 * What a plugin is: one declaration (name, kind, attributes or parameters with types and
 * defaults, summary, runnable examples) and one implementation.
 *
 * The compiler reads the declarations on the host (unknown names, attribute checks,
 * newline rules); pure implementations run inside the isolate, where this module is
 * bundled with the runtime. Privileged plugins declare `host` and have no `run` here:
 * their implementation lives on the host side of the bridge.
 */
import type { Value } from '../value/value.js';
import type { HostCapability } from '../host-api/capabilities.js';
import type { LogLevel } from '../protocol/log.js';
import type { RowBudget } from './budgets.js';

export type AttrType = 'string' | 'int' | 'number' | 'bool' | 'array' | 'mixed' | 'varname';

export interface AttrSpec {
  type: AttrType;
  required?: boolean;
  default?: Value;
  /** Allowed values (compared as strings). */
  enum?: readonly string[];
  min?: number;
  max?: number;
  /** Longest string accepted, in characters: for text the host parses, so its work stays small. */
  maxLength?: number;
  /**
   * Identity attributes (api_internal member_id): only a literal in the template, unless the
   * render runs for a super user. The compiler records the literals in the manifest; the host
   * checks every call against them, since the isolate cannot be trusted to say where a value came from.
   */
  literalUnlessSuperUser?: boolean;
  doc?: string;
}

export interface Example {
  template: string;
  vars?: Record<string, unknown>;
  /** Stored custom functions the example calls with {function}. */
  functions?: Record<string, string>;
  /**
   * Plugins of a host capability the test host lacks (content, members...) run their examples on
   * the sample site of `smartcage site init` (README, "The sample site"); as this member if given.
   */
  memberId?: number;
  /** Where the example renders (plugins limited to batches or the admin test screen); default web. */
  context?: 'web' | 'batch' | 'admin-test';
  /** Exact expected output. */
  output: string;
}

/** What a function plugin sees of the render it runs in. */
export interface PluginContext {
  /** Reads a template variable (null when missing). */
  get(name: string): Value;
  /** Assigns a template variable with the platform's rules: `a.b.c` nests, `list.` appends. */
  assign(name: string, value: Value): void;
  /** State kept for the whole render, per plugin (counter and cycle positions...). */
  state<T>(key: string, init: () => T): T;
  /** A warning for the render's log (PHP would have printed a warning). */
  warn(message: string): void;
  /** Site settings. */
  readonly site: SiteSettings;
  /** Current Unix time in seconds (fixed for one render). */
  readonly now: number;
  /** Uniform random number in [0, 1) from the render's generator, seeded by the host. */
  random(): number;
  /** Appends a line to the render's log (returned with the output; the host stores it). */
  log(level: LogLevel, message: string): void;
  /** Request data the host passed: `get`, `post`, `request`, `session`, `server` (as $smarty.get...). */
  request(kind: string): Value;
}

export interface SiteSettings {
  /** IANA time zone used by date functions; the platform's default is Asia/Tokyo. */
  timezone: string;
  /** Site language (en, ja...). */
  lang: string;
  /** The site's own root URL (ROOT_URL), e.g. https://example.com; check_inner_uri compares with it. */
  rootUrl: string;
}

export interface ModifierContext {
  readonly site: SiteSettings;
  readonly now: number;
  warn(message: string): void;
  random(): number;
  /**
   * Host modifiers only: asks the host for the modifier's result (src/runtime/host-call.ts).
   * Given to plugins here, so that the plugin layer never imports the runtime that calls it.
   */
  askHost(modifier: string, input: Value, args: Value[]): Value;
}

interface Declared {
  name: string;
  /** Other names accepted for the same plugin (the platform's original names). */
  aliases?: readonly string[];
  summary: string;
  examples: readonly Example[];
}

export interface FunctionPlugin extends Declared {
  /**
   * `function`: prints what `run` returns; the newline after the tag is kept (Smarty 2).
   * `compiler`: Smarty 2 compiler plugins ({assign}...), whose tag swallows the newline after it.
   * `block`: a loop the host drives ({read_dir}...{/read_dir}): the host answers with the list
   *   to iterate and the variable that receives each item; the body runs once per item.
   */
  kind: 'function' | 'compiler' | 'block';
  attrs: Readonly<Record<string, AttrSpec>>;
  /** Further attributes are accepted and passed on (math variables, sendmail template vars). */
  extraAttrs?: boolean;
  /** At least one of these attributes must be written (a mail needs a recipient): E_MISSING_ATTR at compile time. */
  requiresOneOf?: readonly string[];
  /** Set for privileged plugins: the host capability they need (a HostAdapters field, or `field.method` for an optional method); `run` is then absent. */
  host?: HostCapability;
  /** Absent for privileged plugins (the host runs them) and for tags the compiler turns into code ({function}, {return}). */
  run?: (attrs: Record<string, Value>, ctx: PluginContext) => string | void;
  /**
   * Block plugins with a host: the isolate's part, run on the items the host answered with before
   * the body runs (read_dir's `pattern`). Work on tenant input belongs here, under the render's
   * CPU budget, rather than in the embedding process (docs/sandbox.md, the host does bounded I/O).
   */
  items?: (items: Value[], attrs: Record<string, Value>, ctx: PluginContext) => Value[];
  /**
   * Host plugins that store something a template can multiply (sessions, tokens, queued batches,
   * mails, files): its row budget (budgets.ts). The bridge counts each call against `perRender`;
   * the host's store holds the per-tenant and per-member caps.
   */
  budget?: RowBudget;
}

export interface ModifierParam {
  name: string;
  type: AttrType;
  required?: boolean;
  default?: Value;
  doc?: string;
  /**
   * The values the modifier acts on, where any other is passed through without a word (Smarty's
   * escape:"htmll" prints the value unescaped: an XSS trap). The compiler warns about a literal
   * argument outside the list; what runs is unchanged.
   */
  known?: readonly string[];
}

export interface ModifierPlugin extends Declared {
  kind: 'modifier';
  params: readonly ModifierParam[];
  /** Where the behaviour comes from, for the docs: a Smarty 2 modifier, a PHP function, or the platform. */
  origin: 'smarty' | 'php' | 'platform';
  /**
   * `input` is the value left of the `|`; `args` are what follows the colons, with declared
   * defaults already filled in for omitted trailing parameters.
   */
  run: (input: Value, args: Value[], ctx: ModifierContext) => Value;
  /**
   * PHP functions that take the array by reference (sort, array_pop, shuffle...): what PHP
   * returns and what the variable holds afterwards. Written first in a chain on a variable
   * (`{$list|@sort}`), the modifier updates that variable, as on the platform.
   */
  byReference?: (input: Value, args: Value[], ctx: ModifierContext) => { result: Value; array: Value };
  /**
   * Optional speed-up for arguments written as literals (`|truncate:80:"..."`), called once
   * when the template is defined with the completed `args`: a function that gives exactly what
   * `run(input, args, ctx)` gives, doing the argument work once. Returns undefined where it has
   * nothing faster to offer (the runtime then calls `run`). It must not throw or warn.
   */
  prepare?: (args: readonly Value[]) => ((input: Value, ctx: ModifierContext) => Value) | undefined;
  /**
   * Set for host modifiers (`|getCountryFromIP`): the host capability they need. Declare them
   * with `defineHostModifier` (src/plugins/host-modifier.ts), whose `run` asks the host, which
   * checks `input` and `params` again before its implementation (src/bridge/host-modifiers.ts) runs.
   */
  host?: HostCapability;
  /** Host modifiers: the parameter the value left of the `|` is, as PHP's parameter parsing sees it. */
  input?: ModifierParam;
}

export type Plugin = FunctionPlugin | ModifierPlugin;

/** A tag's declaration, its literal type kept: a host plugin's implementation is typed from it (host-plugins/plugin-contract.ts `implement`). */
export function defineFunction<const P extends FunctionPlugin>(p: P): P {
  return p;
}

export function defineModifier(p: ModifierPlugin): ModifierPlugin {
  return p;
}
