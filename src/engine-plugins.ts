/**
 * An embedder's own tags and modifiers: `createEngine({ plugins: [definePlugin({...})] })`
 * (docs/plugins-for-embedders.md). A definition is a declaration in the built-in form
 * (attributes as data, summary, examples) and a `run` that executes on the host, behind the
 * bridge; nothing of the embedder's code enters the isolate.
 *
 * definePlugin checks a definition where it is written; createEngine checks its list again
 * (plain objects are accepted too) and builds, for that engine alone, the plugin set its
 * compiles read, the table its bridges run, and the digest that keys its compiled code.
 */
import { createHash } from 'node:crypto';
import { BUILTIN_PLUGINS } from './plugins/registry.js';
import { pluginData, type PluginData } from './plugins/plugin-set.js';
import type { AttrSpec, AttrType, ModifierParam } from './plugins/types.js';
import { NAME, pluginNameProblem } from './compiler/plugin-names.js';
import { HOST_MODIFIERS, HOST_PLUGINS, byName } from './host-plugins/index.js';
import {
  declarationOf,
  hostModifier,
  hostTag,
  type ModifierDefinition,
  type PluginDefinition,
  type TagDefinition,
} from './bridge/embedder-plugins.js';
import type { PluginTable } from './host-plugins/plugin-contract.js';
import type { CompilePlugins } from './compiled-templates.js';
import type { Engine, RenderOptions } from './engine.js';
import type { RenderIdentity } from './host-api/host.js';
import type { TemplateError } from './errors.js';

/** A tag or modifier of the embedder's, checked now: a mistake throws here, where it is written. */
export function definePlugin(def: TagDefinition): TagDefinition;
export function definePlugin(def: ModifierDefinition): ModifierDefinition;
export function definePlugin(def: PluginDefinition): PluginDefinition {
  const problem = definitionProblem(def);
  if (problem) throw new TypeError(`smartcage: definePlugin: ${problem}`);
  return def;
}

/** What an engine with plugins of its own compiles and bridges with. */
export interface EnginePlugins {
  compile: CompilePlugins;
  table: PluginTable;
}

/** createEngine({ plugins }): the list checked as a whole, then the engine's set, table and digest. */
export function enginePlugins(defs: unknown): EnginePlugins {
  if (!Array.isArray(defs))
    throw new TypeError('smartcage: createEngine({ plugins }) takes a list of plugins (definePlugin)');
  const seen = { tag: new Set<string>(), modifier: new Set<string>() };
  defs.forEach((def: PluginDefinition, i) => {
    const problem = definitionProblem(def);
    const what = `createEngine({ plugins }): plugin #${i + 1}${typeof def?.name === 'string' ? ` (${def.name.slice(0, 64)})` : ''}`;
    if (problem) throw new TypeError(`smartcage: ${what}: ${problem}`);
    const names = seen[def.kind === 'modifier' ? 'modifier' : 'tag'];
    for (const name of [def.name, ...(def.aliases ?? [])]) {
      if (names.has(name))
        throw new TypeError(`smartcage: ${what}: the name ${name} is taken by an earlier plugin of the list`);
      names.add(name);
    }
  });
  const list = defs as PluginDefinition[];
  const declarations = list.map(declarationOf);
  const data: PluginData[] = declarations.map(pluginData);
  const tags = list.filter((d): d is TagDefinition => d.kind !== 'modifier');
  const modifiers = list.filter((d): d is ModifierDefinition => d.kind === 'modifier');
  const set = BUILTIN_PLUGINS.extend(declarations);
  return {
    compile: { set, data, digest: createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, 16) },
    table: Object.freeze({
      declarations: set,
      functions: byName([...Object.values(HOST_PLUGINS), ...tags.map(hostTag)]),
      modifiers: byName([...Object.values(HOST_MODIFIERS), ...modifiers.map(hostModifier)]),
    }),
  };
}

const ATTR_TYPES: ReadonlySet<AttrType> = new Set(['string', 'int', 'number', 'bool', 'array', 'mixed', 'varname']);

/** The first thing wrong with a definition, or null. Plain JavaScript reaches here too, so nothing is assumed of its types. */
function definitionProblem(def: PluginDefinition): string | null {
  if (!def || typeof def !== 'object') return 'a plugin is an object (definePlugin({ kind, name, ... }))';
  if (def.kind !== 'function' && def.kind !== 'block' && def.kind !== 'modifier')
    return `kind must be function, block or modifier, not ${JSON.stringify(def.kind)}`;
  const kind = def.kind === 'modifier' ? 'modifier' : 'tag';
  for (const name of [def.name, ...(Array.isArray(def.aliases) ? def.aliases : [])]) {
    const why = pluginNameProblem(kind, name, BUILTIN_PLUGINS);
    if (why) return why;
  }
  if (def.aliases !== undefined && !Array.isArray(def.aliases)) return 'aliases must be a list of names';
  if (typeof def.summary !== 'string' || def.summary.trim() === '')
    return 'summary must say in a sentence what it does';
  if (typeof def.run !== 'function') return 'run must be a function (it runs on the host)';
  if (def.host !== undefined && typeof def.host !== 'string') return 'host must name a HostAdapters field';
  const examples = examplesProblem(def.examples);
  if (examples) return examples;
  if (def.kind === 'modifier') {
    if (!Array.isArray(def.params)) return 'params must be a list (empty for none)';
    for (const p of [...def.params, ...(def.input === undefined ? [] : [def.input])]) {
      const why = paramProblem(p);
      if (why) return why;
    }
    return null;
  }
  if (def.extraAttrs !== undefined && typeof def.extraAttrs !== 'boolean') return 'extraAttrs must be true or false';
  if (!def.attrs || typeof def.attrs !== 'object' || Array.isArray(def.attrs))
    return 'attrs must be an object of attribute declarations ({} for none)';
  for (const [name, spec] of Object.entries(def.attrs)) {
    if (!NAME.test(name)) return `${JSON.stringify(name).slice(0, 80)} is not an attribute name`;
    const why = specProblem(name, spec);
    if (why) return why;
  }
  return null;
}

function examplesProblem(examples: unknown): string | null {
  if (!Array.isArray(examples) || examples.length === 0)
    return 'examples must list at least one { template, output } (runPluginExamples renders them)';
  for (const ex of examples as { template?: unknown; output?: unknown; vars?: unknown }[]) {
    if (!ex || typeof ex.template !== 'string' || typeof ex.output !== 'string')
      return 'each example needs a template and its exact output (strings)';
    if (ex.vars !== undefined && (typeof ex.vars !== 'object' || ex.vars === null || Array.isArray(ex.vars)))
      return "an example's vars must be an object";
  }
  return null;
}

function specProblem(name: string, spec: AttrSpec): string | null {
  if (!spec || typeof spec !== 'object') return `attribute ${name}: a declaration ({ type, ... })`;
  if (!ATTR_TYPES.has(spec.type)) return `attribute ${name}: type must be one of ${[...ATTR_TYPES].join(', ')}`;
  for (const flag of ['required', 'literalUnlessSuperUser'] as const) {
    if (spec[flag] !== undefined && typeof spec[flag] !== 'boolean')
      return `attribute ${name}: ${flag} must be true or false`;
  }
  if (spec.enum !== undefined && (!Array.isArray(spec.enum) || !spec.enum.every((v) => typeof v === 'string')))
    return `attribute ${name}: enum must be a list of strings`;
  for (const bound of ['min', 'max', 'maxLength'] as const) {
    if (spec[bound] !== undefined && !Number.isFinite(spec[bound]))
      return `attribute ${name}: ${bound} must be a number`;
  }
  if (spec.min !== undefined && spec.max !== undefined && spec.min > spec.max)
    return `attribute ${name}: min is above max`;
  if (spec.literalUnlessSuperUser && spec.type !== 'int')
    return `attribute ${name}: literalUnlessSuperUser is for member ids (type int)`;
  return null;
}

function paramProblem(p: ModifierParam): string | null {
  if (!p || typeof p !== 'object' || typeof p.name !== 'string' || !NAME.test(p.name))
    return 'each modifier parameter needs a name (letters, digits, _)';
  if (!ATTR_TYPES.has(p.type)) return `parameter ${p.name}: type must be one of ${[...ATTR_TYPES].join(', ')}`;
  if (p.required !== undefined && typeof p.required !== 'boolean')
    return `parameter ${p.name}: required must be true or false`;
  if (p.known !== undefined && (!Array.isArray(p.known) || !p.known.every((v) => typeof v === 'string')))
    return `parameter ${p.name}: known must be a list of strings`;
  return null;
}

/** The plugins each engine was made with, for runPluginExamples. */
const ENGINE_PLUGINS = new WeakMap<Engine, readonly PluginDefinition[]>();

export function rememberPlugins(engine: Engine, defs: readonly PluginDefinition[]): void {
  ENGINE_PLUGINS.set(engine, defs);
}

/** One example of an engine's own plugin, rendered. */
export interface ExampleRun {
  plugin: string;
  /** 1 for the plugin's first example. */
  index: number;
  template: string;
  expected: string;
  /** What the render printed; null when it failed. */
  output: string | null;
  /** The render's error, when it failed. */
  error: TemplateError | null;
  ok: boolean;
}

/**
 * Renders every example of the engine's own plugins with that engine, so that an embedder's
 * examples run as tests as the built-in ones do (docs/plugins-for-embedders.md has the recipe).
 * An engine made without plugins has none.
 */
export async function runPluginExamples(
  engine: Engine,
  opts: { identity?: Partial<RenderIdentity> } = {},
): Promise<ExampleRun[]> {
  const defs = ENGINE_PLUGINS.get(engine);
  if (!defs) throw new TypeError('smartcage: runPluginExamples takes an engine made by createEngine');
  const runs: ExampleRun[] = [];
  for (const def of defs) {
    for (const [i, ex] of def.examples.entries()) {
      const render: RenderOptions = {
        name: `${def.name}-example-${i + 1}.tpl`,
        vars: ex.vars,
        identity: opts.identity,
      };
      const run = { plugin: def.name, index: i + 1, template: ex.template, expected: ex.output };
      try {
        const { output } = await engine.render(ex.template, render);
        runs.push({ ...run, output, error: null, ok: output === ex.output });
      } catch (e) {
        runs.push({ ...run, output: null, error: e as TemplateError, ok: false });
      }
    }
  }
  return runs;
}
