/** What the language server knows of the language: the plugin reference by name, and the tags built into the compiler. */
import { BUILT_IN_TAGS } from '../compiler/codegen/unknown-names.js';
import { pluginEntries, signature, type PluginEntry } from '../plugins/reference.js';

/** Built-in tags closed by {/name}: the compiler's blocks (structure.ts) and {if}. */
const BUILT_IN_BLOCKS: ReadonlySet<string> = new Set(['if', 'foreach', 'section', 'capture', 'strip']);

export class Language {
  /** Implemented tag plugins by name and alias. */
  readonly tags = new Map<string, PluginEntry>();
  /** Implemented modifiers by name and alias. */
  readonly modifiers = new Map<string, PluginEntry>();
  readonly builtInTags: readonly string[] = BUILT_IN_TAGS;

  constructor() {
    for (const e of pluginEntries()) {
      if (!e.implemented) continue;
      const table = e.kind === 'modifier' ? this.modifiers : this.tags;
      for (const name of [e.name, ...e.aliases]) table.set(name, e);
    }
  }

  isBlock(name: string): boolean {
    return BUILT_IN_BLOCKS.has(name) || this.tags.get(name)?.form === 'block';
  }
}

/** A plugin as Markdown: its signature, summary, and where it runs. */
export function describe(e: PluginEntry): string {
  const kind = e.kind === 'modifier' ? 'modifier' : `${e.form} tag`;
  const where = e.runs === 'host' ? `runs on the host, with its \`${e.capability}\` capability` : 'runs in the sandbox';
  return ['```smartcage', signature(e), '```', '', e.summary, '', `*${kind}, ${where}*`].join('\n');
}
