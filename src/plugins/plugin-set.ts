/**
 * The plugins one compile or one bridge looks names up in: the built-in set (registry.ts), or
 * the built-in set and an engine's own plugins (createEngine({ plugins }), src/engine-plugins.ts).
 *
 * The isolate's runtime is bundled with the built-in set only. A plugin added to a set is
 * therefore one the isolate does not know: the compiler calls it through the host
 * (`rt.hostFn`, `rt.hostModifier`), and its declaration and implementation stay on the host.
 */
import type { FunctionPlugin, ModifierPlugin, Plugin } from './types.js';

export class PluginSet {
  private readonly functions: Map<string, FunctionPlugin>;
  private readonly modifiers: Map<string, ModifierPlugin>;
  /** The plugins added to the built-in set, which only the host runs. */
  private readonly added: ReadonlySet<Plugin>;

  private constructor(
    functions: Map<string, FunctionPlugin>,
    modifiers: Map<string, ModifierPlugin>,
    added: ReadonlySet<Plugin>,
  ) {
    this.functions = functions;
    this.modifiers = modifiers;
    this.added = added;
  }

  /** The built-in set: what the isolate's runtime is bundled with. */
  static builtIn(plugins: readonly Plugin[]): PluginSet {
    const set = new PluginSet(new Map(), new Map(), new Set());
    set.addAll(plugins);
    return set;
  }

  /** This set and `plugins`, which the host alone runs. A name (or alias) already taken throws. */
  extend(plugins: readonly Plugin[]): PluginSet {
    const set = new PluginSet(new Map(this.functions), new Map(this.modifiers), new Set([...this.added, ...plugins]));
    set.addAll(plugins);
    return set;
  }

  findFunction(name: string): FunctionPlugin | undefined {
    return this.functions.get(name);
  }

  findModifier(name: string): ModifierPlugin | undefined {
    return this.modifiers.get(name);
  }

  /** Every tag name, aliases included. */
  functionNames(): string[] {
    return Array.from(this.functions.keys());
  }

  /** Every modifier name, aliases included. */
  modifierNames(): string[] {
    return Array.from(this.modifiers.keys());
  }

  /** True for a plugin added to the built-in set: the isolate does not know it, the host runs it. */
  hostOnly(plugin: Plugin): boolean {
    return this.added.has(plugin);
  }

  private addAll(plugins: readonly Plugin[]): void {
    for (const p of plugins) {
      const table: Map<string, Plugin> = p.kind === 'modifier' ? this.modifiers : this.functions;
      for (const name of [p.name, ...(p.aliases ?? [])]) {
        if (table.has(name)) throw new Error(`plugin name declared twice: ${name}`);
        table.set(name, p);
      }
    }
  }
}

/**
 * A declaration as the compiler reads it, as data the compile thread can be sent (structured
 * clone takes no functions): no code, no examples, no defaults (the compiler reads none of them).
 */
export type PluginData =
  Omit<FunctionPlugin, 'run' | 'items'> | Omit<ModifierPlugin, 'run' | 'byReference' | 'prepare'>;

export function pluginData(p: Plugin): PluginData {
  const base = { name: p.name, aliases: p.aliases, summary: p.summary, examples: [], host: p.host };
  if (p.kind === 'modifier') {
    return {
      ...base,
      kind: p.kind,
      origin: p.origin,
      params: p.params.map(withoutDefault),
      input: p.input && withoutDefault(p.input),
    };
  }
  return {
    ...base,
    kind: p.kind,
    extraAttrs: p.extraAttrs,
    attrs: Object.fromEntries(Object.entries(p.attrs).map(([k, spec]) => [k, withoutDefault(spec)])),
  };
}

function withoutDefault<T extends { default?: unknown }>(spec: T): Omit<T, 'default'> {
  const { default: _unused, ...rest } = spec;
  return rest;
}

/** The declaration again, on the compile thread: a modifier's `run` there is never called (the compiler calls none). */
export function pluginFromData(d: PluginData): Plugin {
  if (d.kind !== 'modifier') return d;
  return {
    ...d,
    run: () => {
      throw new Error(`the modifier ${d.name} is declared here, not run`);
    },
  };
}
