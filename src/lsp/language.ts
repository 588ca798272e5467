/** What the language server knows of the language: the plugin reference by name, and the tags built into the compiler. */
import { BUILTIN_TAG_NAMES, builtinTag } from '../compiler/builtin-tags.js';
import { pluginEntries, signature, type PluginEntry } from '../plugins/reference.js';

export class Language {
  /** Implemented tag plugins by name and alias. */
  readonly tags = new Map<string, PluginEntry>();
  /** Implemented modifiers by name and alias. */
  readonly modifiers = new Map<string, PluginEntry>();
  readonly builtInTags: readonly string[] = BUILTIN_TAG_NAMES;

  constructor() {
    for (const e of pluginEntries()) {
      if (!e.implemented) continue;
      const table = e.kind === 'modifier' ? this.modifiers : this.tags;
      for (const name of [e.name, ...e.aliases]) table.set(name, e);
    }
  }

  isBlock(name: string): boolean {
    return name === 'if' || builtinTag(name)?.kind === 'block' || this.tags.get(name)?.form === 'block';
  }
}

/** A plugin as Markdown: its signature, summary, and where it runs. */
export function describe(e: PluginEntry): string {
  const kind = e.kind === 'modifier' ? 'modifier' : `${e.form} tag`;
  const where = e.runs === 'host' ? `runs on the host, with its \`${e.capability}\` capability` : 'runs in the sandbox';
  return ['```smartcage', signature(e), '```', '', e.summary, '', `*${kind}, ${where}*`].join('\n');
}
