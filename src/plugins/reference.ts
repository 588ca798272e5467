/**
 * The plugin reference as data, read from the declarations and the catalogue: `smartcage plugins`
 * prints it, scripts/build-reference.mjs writes docs/reference.md from it, and the language
 * server shows the same signatures. Nothing here is written by hand per plugin.
 */
import type { RowBudget, StoreCap } from './budgets.js';
import { FUNCTION_NAMES, MODIFIER_NAMES } from './catalog.js';
import { FAMILIES } from './registry.js';
import type { AttrSpec, ModifierParam, Plugin } from './types.js';
import { PhpArray, PhpFloat, type Value } from '../value/value.js';

/** One attribute of a tag, or one parameter of a modifier (in order). */
interface ArgumentEntry {
  name: string;
  type: string;
  required: boolean;
  /** The declared default, as JSON; absent when none is declared. */
  default?: string | number | boolean | null;
  enum?: readonly string[];
  doc?: string;
}

export interface PluginEntry {
  name: string;
  /** `tag`: written `{name ...}`; `modifier`: written `|name:...`. */
  kind: 'tag' | 'modifier';
  /**
   * Tags: `function` prints, `compiler` only assigns or controls (the newline after it is
   * swallowed), `block` runs its body per item up to `{/name}`. Modifiers: `modifier`.
   */
  form: 'function' | 'compiler' | 'block' | 'modifier';
  /** The folder under src/plugins the declaration lives in; null when not implemented. */
  family: string | null;
  aliases: readonly string[];
  summary: string;
  /** Tags: their attributes; modifiers: their parameters after the colons, in order. */
  arguments: readonly ArgumentEntry[];
  /** Tags that pass further attributes on ({math} variables, {sendmail} template variables). */
  extraAttributes: boolean;
  /** Tags that need at least one of these attributes written ({sendmail}: a recipient). */
  requiresOneOf?: readonly string[];
  /** Host modifiers: the value left of the `|`, as the PHP function's parameter. */
  input?: ArgumentEntry;
  /** Modifiers: a Smarty 2 modifier, a PHP function or a platform helper. */
  origin?: 'smarty' | 'php' | 'platform';
  /** `isolate`: runs inside the sandbox; `host`: the host answers over the bridge. Null when not implemented. */
  runs: 'isolate' | 'host' | null;
  /** Host plugins: the capability they need from the embedder (files, http, secrets...). */
  capability: string | null;
  /** False for names the language defines (src/plugins/catalog.ts) that have no implementation yet. */
  implemented: boolean;
  /** Host plugins that store rows a template can multiply: their row budget (budgets.ts). */
  budget?: RowBudget;
}

/** A row budget in one line: `sessions: 10 a render, 50 a member (oldest evicted), 10000 a site (refused)`. */
export function budgetText(b: RowBudget): string {
  const cap = (c: StoreCap | undefined, per: string) =>
    c ? [`${c.max} a ${per} (${c.atCap === 'refuse' ? 'then refused' : 'the oldest evicted'})`] : [];
  const parts = [`${b.perRender} a render`, ...cap(b.perMember, 'member'), ...cap(b.perTenant, 'site')];
  return `${b.rows}: ${parts.join(', ')}${b.note ? `; ${b.note}` : ''}`;
}

/** Every implemented plugin by family (tags, then modifiers, by name), then the catalogue's names that are not implemented yet. */
export function pluginEntries(): PluginEntry[] {
  const entries: PluginEntry[] = [];
  const known = { tag: new Set<string>(), modifier: new Set<string>() };
  for (const [family, plugins] of Object.entries(FAMILIES)) {
    const inFamily = plugins.map((p) => entryOf(p, family)).sort(byKindAndName);
    for (const e of inFamily) {
      entries.push(e);
      for (const n of [e.name, ...e.aliases]) known[e.kind].add(n);
    }
  }
  const missing = (kind: 'tag' | 'modifier', names: readonly string[]): PluginEntry[] =>
    [...new Set(names)]
      .filter((n) => !known[kind].has(n))
      .sort()
      .map((name) => ({
        name,
        kind,
        form: kind === 'tag' ? 'function' : 'modifier',
        family: null,
        aliases: [],
        summary: '',
        arguments: [],
        extraAttributes: false,
        runs: null,
        capability: null,
        implemented: false,
      }));
  return [...entries, ...missing('tag', FUNCTION_NAMES), ...missing('modifier', MODIFIER_NAMES)];
}

/** Tags before modifiers, then by name in code-unit order (the same on every machine, unlike a locale's). */
function byKindAndName(a: PluginEntry, b: PluginEntry): number {
  if (a.kind !== b.kind) return a.kind === 'tag' ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function entryOf(p: Plugin, family: string): PluginEntry {
  return {
    name: p.name,
    kind: p.kind === 'modifier' ? 'modifier' : 'tag',
    form: p.kind,
    family,
    aliases: p.aliases ?? [],
    summary: p.summary,
    arguments:
      p.kind === 'modifier'
        ? p.params.map(argumentOf)
        : Object.entries(p.attrs).map(([name, spec]) => argumentOf({ name, ...spec })),
    extraAttributes: p.kind !== 'modifier' && p.extraAttrs === true,
    ...(p.kind !== 'modifier' && p.requiresOneOf ? { requiresOneOf: p.requiresOneOf } : {}),
    ...(p.kind === 'modifier' && p.input ? { input: argumentOf(p.input) } : {}),
    ...(p.kind === 'modifier' ? { origin: p.origin } : {}),
    runs: p.host ? 'host' : 'isolate',
    capability: p.host ?? null,
    implemented: true,
    ...(p.kind !== 'modifier' && p.budget ? { budget: p.budget } : {}),
  };
}

function argumentOf(a: (AttrSpec & { name: string }) | ModifierParam): ArgumentEntry {
  return {
    name: a.name,
    type: a.type,
    required: a.required === true,
    ...(a.default !== undefined ? { default: jsonValue(a.default) } : {}),
    ...('enum' in a && a.enum ? { enum: a.enum } : {}),
    ...(a.doc ? { doc: a.doc } : {}),
  };
}

/** Declared defaults are scalars; an array or object default is named by its type rather than shown. */
function jsonValue(v: Value): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (v instanceof PhpFloat) return v.value;
  if (typeof v === 'object') return v instanceof PhpArray ? '(array)' : '(object)';
  // JSON has no exact number past 2^53: such a default is shown as its digits.
  if (typeof v === 'bigint') return String(v);
  return v;
}

/**
 * How the plugin is written, from its declaration: `{read_file [path=string] [type=txt|csv|jsonl] ...}`
 * or `|truncate[:length=80][:etc="..."]`. Optional attributes and parameters are in brackets.
 */
export function signature(e: PluginEntry): string {
  const value = (a: ArgumentEntry) => (a.enum ? a.enum.join('|') : a.type);
  if (e.kind === 'modifier') {
    const params = e.arguments.map((a) =>
      a.required ? `:${a.name}` : `[:${a.name}${a.default !== undefined ? `=${JSON.stringify(a.default)}` : ''}]`,
    );
    return `|${e.name}${params.join('')}`;
  }
  const attrs = e.arguments.map((a) => (a.required ? `${a.name}=${value(a)}` : `[${a.name}=${value(a)}]`));
  if (e.extraAttributes) attrs.push('[...]');
  return `{${[e.name, ...attrs].join(' ')}}${e.form === 'block' ? `...{/${e.name}}` : ''}`;
}
